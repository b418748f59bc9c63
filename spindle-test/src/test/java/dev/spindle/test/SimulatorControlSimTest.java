package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Alt;
import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * The simulator's controls: {@link SimFiber#cancel()} waits for finalizers, the virtual clock starts at a
 * chosen instant, and {@link Job#random()} replays exactly under the same schedule.
 */
class SimulatorControlSimTest {

    @Test
    void cancelWaitsForTheFinalizersInVirtualTime() {
        Simulation sim = Simulation.create();
        AtomicBoolean finalized = new AtomicBoolean();
        SimFiber<Void> f = sim.start(Job.sleep(Duration.ofDays(1))
                .onCancel(Job.sleep(Duration.ofSeconds(5)).then(Job.run(() -> finalized.set(true)))));
        sim.advance(Duration.ofSeconds(1));
        f.cancel();
        assertThat(finalized).isTrue();
        assertThat(f.isDone()).isTrue();
        assertThat(f.outcome()).isEqualTo(Outcome.cancelled());
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(6));
        sim.close();
    }

    @Test
    void cancellingAFiberThatWasNeverRunRunsItsWholeJobsFinalizer() {
        Simulation sim = Simulation.create();
        AtomicBoolean finalized = new AtomicBoolean();
        SimFiber<Void> f = sim.start(Job.sleep(Duration.ofDays(1)).ensure(Job.run(() -> finalized.set(true))));
        f.cancel();
        assertThat(finalized).isTrue();
        assertThat(f.outcome()).isEqualTo(Outcome.cancelled());
        assertThat(sim.elapsed()).isZero();
    }

    @Test
    void cancelLeavesAFinishedFiberAndWaitsOutAnUncancelableRegion() {
        Simulation sim = Simulation.create();
        SimFiber<String> done = sim.start(Job.result("done"));
        sim.runUntilIdle();
        done.cancel();
        assertThat(done.join()).isEqualTo("done");

        AtomicBoolean regionEnded = new AtomicBoolean();
        SimFiber<String> masked = sim.start(Job.uncancelable(Job.sleep(Duration.ofSeconds(1))
                .then(Job.run(() -> regionEnded.set(true)))).then(Job.result("not reached")));
        sim.runUntilIdle();
        masked.cancel();
        assertThat(regionEnded).as("cancel waited for the uncancelable region").isTrue();
        assertThat(masked.outcome()).isEqualTo(Outcome.cancelled());
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void cancelReportsAFinalizerThatCanNeverFinish() {
        Simulation sim = Simulation.create();
        SimFiber<Void> f = sim.start(Job.sleep(Duration.ofDays(1)).onCancel(Alt.<Void>never()));
        sim.runUntilIdle();
        assertThatThrownBy(f::cancel).isInstanceOf(DeadlockException.class);
    }

    @Test
    void aSimFibersHandleJoinsFromJobs() {
        Simulation sim = Simulation.create();
        SimFiber<Integer> f = sim.start(Job.sleep(Duration.ofSeconds(1)).then(Job.result(7)));
        Fiber<Integer> handle = f.fiber();
        int v = sim.run(handle.join().map(x -> x * 6));
        assertThat(v).isEqualTo(42);
    }

    @Test
    void theVirtualClockStartsAtTheChosenInstant() {
        Instant start = Instant.parse("2030-01-01T00:00:00Z");
        Simulation sim = Simulation.builder().startAt(start).build();
        assertThat(sim.now()).isEqualTo(start);
        assertThat(sim.run(Job.now())).isEqualTo(start);
        assertThat(sim.scheduler().now()).isEqualTo(start);
        sim.run(Job.sleepUntil(start.plus(Duration.ofHours(2))));
        assertThat(sim.elapsed()).isEqualTo(Duration.ofHours(2));
        assertThat(sim.now()).isEqualTo(start.plus(Duration.ofHours(2)));
        sim.run(Job.sleepUntil(start)); // already past: at once
        assertThat(sim.elapsed()).isEqualTo(Duration.ofHours(2));
        assertThat(Simulation.create().now()).isEqualTo(Instant.EPOCH);
    }

    @Test
    void atAndAfterRaceOnTheVirtualClock() {
        Instant start = Instant.parse("2001-09-09T01:46:40Z");
        Simulation sim = Simulation.builder().startAt(start).build();
        String winner = sim.run(Alt.<String>choose(Alt.after(Duration.ofMinutes(61)).wrap(v -> "after"),
                Alt.at(start.plus(Duration.ofHours(1))).wrap(v -> "at")));
        assertThat(winner).isEqualTo("at");
        assertThat(sim.elapsed()).isEqualTo(Duration.ofHours(1));
        sim.close();
        assertThat(sim.elapsed()).as("the losing timer was removed").isEqualTo(Duration.ofHours(1));
    }

    /** Three fibers each draw three numbers, interleaved by the schedule. */
    private static List<Integer> draws(Simulation sim) {
        List<Integer> out = new ArrayList<>();
        Job<Void> drawer = Job.random().flatMap(r -> draw(r, out, 3));
        sim.run(Job.all(List.of(drawer, drawer, drawer)));
        return out;
    }

    private static Job<Void> draw(RandomGenerator r, List<Integer> out, int n) {
        return n == 0 ? Job.unit() : Job.run(() -> out.add(r.nextInt(1000))).then(Job.yieldNow())
                .then(Job.defer(() -> draw(r, out, n - 1)));
    }

    @Test
    void randomReplaysExactlyUnderTheSameSeed() {
        List<Integer> first = draws(Simulation.withSeed(7));
        assertThat(first).hasSize(9);
        assertThat(draws(Simulation.withSeed(7))).isEqualTo(first);
        assertThat(draws(Simulation.replay("seed:7"))).isEqualTo(first);
        assertThat(draws(Simulation.withSeed(8))).isNotEqualTo(first);
    }

    @Test
    void anExplorationFailureDrivenByRandomReplaysFromItsReport() {
        List<List<Integer>> seen = new ArrayList<>();
        Scenario scenario = sim -> {
            List<Integer> d = draws(sim);
            seen.add(d);
            assertThat(d.get(0) % 4).as("first draw %s", d).isNotZero();
        };
        ExplorationReport report = Simulation.explore(200, 11, scenario);
        assertThat(report.failed()).as("some schedule draws a multiple of 4 first").isTrue();
        List<Integer> failing = seen.get(seen.size() - 1);
        seen.clear();
        assertThatThrownBy(() -> Simulation.replay(report.replayToken(), scenario)).isInstanceOf(AssertionError.class);
        assertThat(seen).containsExactly(failing);
    }
}
