package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.spindle.Job;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Planted bug 1: a lost update. Two fibers increment a shared variable by reading it, yielding, and
 * writing what they read plus one. Scheduling order happens to serialise them; other schedules do not.
 */
class LostUpdateSimTest {

    /** The buggy increment: read, yield (another fiber may run), write. */
    private static Job<Void> increment(Simulation sim, int[] shared) {
        return Job.of(() -> shared[0])
                .flatMap(v -> {
                    sim.note("read " + v);
                    return Job.yieldNow().then(Job.run(() -> {
                        shared[0] = v + 1;
                        sim.note("wrote " + (v + 1));
                    }));
                });
    }

    /** incA increments at once; incB first does some other work (two yields). */
    static final Scenario TWO_INCREMENTS = sim -> {
        int[] shared = {0};
        Job<Void> incA = increment(sim, shared).named("incA");
        Job<Void> incB = Job.yieldNow().then(Job.yieldNow()).then(increment(sim, shared)).named("incB");
        sim.run(Job.all(List.of(incA, incB)));
        assertEquals(2, shared[0], "both increments applied");
    };

    /** The naive order passes: this is why the bug survives ordinary tests. */
    @Test
    void schedulingOrderHidesTheBug() throws Exception {
        TWO_INCREMENTS.run(Simulation.create());
    }

    /** Exploration finds the lost update within 1,000 schedules and reports a schedule, trace and replay line. */
    @Test
    void explorationFindsTheLostUpdate() {
        ExplorationReport report = Simulation.explore(1_000, 42, TWO_INCREMENTS);

        assertThat(report.failed()).isTrue();
        assertThat(report.schedulesRun()).isBetween(2, 1_000);
        assertThat(report.failure()).isInstanceOf(AssertionError.class).hasMessageContaining("expected: <2>");
        assertThat(report.replayLine()).isEqualTo("Simulation.replay(\"" + report.schedule() + "\", scenario);");
        String text = report.toString();
        assertThat(text).contains("Simulation FAILED at schedule " + report.schedulesRun() + " of 1000",
                "base seed 42", "Replay: Simulation.replay(\"" + report.replayToken() + "\", scenario);",
                "\"incA\": read 0", "\"incB\": read 0", "\"incA\" runs", "\"incB\" runs");
        System.out.println(text);
    }

    /** The reported schedule fails again, with the same trace, every time it is replayed. */
    @Test
    void reportedScheduleReplaysExactly() {
        ExplorationReport report = Simulation.explore(1_000, 42, TWO_INCREMENTS);
        String token = report.replayToken();

        for (int i = 0; i < 3; i++) {
            ExplorationReport again = Explorer.run(Schedule.parse(token), TWO_INCREMENTS);
            assertThat(again.failed()).isTrue();
            assertThat(again.trace().toString()).isEqualTo(report.trace().toString());
        }
        assertThatThrownBy(() -> Simulation.replay(token, TWO_INCREMENTS))
                .isInstanceOf(AssertionError.class).hasMessageContaining(token);
    }

    /** check() throws an AssertionError that carries the report and the scenario's failure as cause. */
    @Test
    void checkThrowsTheReport() {
        assertThatThrownBy(() -> Simulation.check(1_000, 42, TWO_INCREMENTS))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Replay: Simulation.replay(")
                .hasCauseInstanceOf(AssertionError.class);
    }

    /** Both strategies find it on their own: random choice and PCT. */
    @Test
    void randomAndPctEachFindIt() {
        int random = 0;
        int pct = 0;
        for (long seed = 1; seed <= 200; seed++) {
            random += Explorer.run(Schedule.seeded(seed), TWO_INCREMENTS).failed() ? 1 : 0;
            pct += Explorer.run(Schedule.pct(seed, 2, 30), TWO_INCREMENTS).failed() ? 1 : 0;
        }
        assertThat(random).isPositive();
        assertThat(pct).isPositive();
    }
}
