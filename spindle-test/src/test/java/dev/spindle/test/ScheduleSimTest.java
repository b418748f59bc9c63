package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Schedule tokens: printing and parsing round-trip, bad tokens are refused with the expected grammar. */
class ScheduleSimTest {

    @Test
    void tokensRoundTrip() {
        for (Schedule s : new Schedule[] {Schedule.seeded(0), Schedule.seeded(-42), Schedule.pct(Long.MIN_VALUE, 3, 17)}) {
            assertThat(Schedule.parse(s.toString())).isEqualTo(s);
        }
        assertThat(Schedule.pct(5, 2, 30)).hasToString("pct:5:2:30");
        assertThat(Schedule.seeded(9)).hasToString("seed:9");
        assertThat(Schedule.schedulingOrder()).isEqualTo(Schedule.seeded(0));
    }

    @Test
    void badTokensAreRefused() {
        assertThatThrownBy(() -> Schedule.parse("random:3")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("seed:<seed> or pct:<seed>:<depth>:<steps>");
        assertThatThrownBy(() -> Schedule.parse("seed:x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Schedule.parse("pct:1:0:5")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("depth");
        assertThatThrownBy(() -> Simulation.replay("nonsense")).isInstanceOf(IllegalArgumentException.class);
    }

    /** An exploration derives the same schedules from the same base seed: seed 0 first, then random and PCT. */
    @Test
    void explorationSchedulesAreDerivedFromTheBaseSeed() {
        java.util.List<String> first = new java.util.ArrayList<>();
        java.util.List<String> second = new java.util.ArrayList<>();
        Simulation.explore(7, 5, sim -> first.add(sim.schedule().toString()));
        Simulation.explore(7, 5, sim -> second.add(sim.schedule().toString()));

        assertThat(first).isEqualTo(second).hasSize(7);
        assertThat(first.get(0)).isEqualTo("seed:0");
        assertThat(first.get(1)).startsWith("seed:");
        assertThat(first.get(2)).startsWith("pct:").contains(":2:");
        assertThat(first.get(4)).startsWith("pct:").contains(":3:");
        assertThat(first.get(6)).startsWith("pct:").contains(":1:");
    }

    @Test
    void explorationNeedsAtLeastOneSchedule() {
        assertThatThrownBy(() -> Simulation.explore(0, 1, sim -> { })).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void passingExplorationSaysSo() {
        ExplorationReport r = Simulation.explore(20, 3, sim -> sim.run(dev.spindle.Job.yieldNow()));
        assertThat(r.passed()).isTrue();
        assertThat(r.schedulesRun()).isEqualTo(20);
        assertThat(r.replayLine()).isNull();
        assertThat(r).hasToString("Simulation passed 20 schedules (base seed 3)");
    }
}
