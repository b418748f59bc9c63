package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Direct;
import dev.spindle.Outcome;
import dev.spindle.test.Simulation;
import dev.spindle.test.SimulationTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link DirectStyle} in virtual time, under many schedules (continuation backend): every wait ends at the
 * instant its sleeps imply, and nothing is left running.
 */
final class DirectStyleSimTest {

    /** Ten 1 ms sleeps in the producer: the consumer's sum is ready at exactly 10 ms. */
    @SimulationTest(schedules = 100)
    void directSumTakesTenMilliseconds(Simulation sim) {
        assertThat(Direct.backend()).isEqualTo(Direct.Backend.CONTINUATION);
        assertThat(sim.run(DirectStyle.directSum())).isEqualTo(55);
        assertThat(sim.elapsed()).isEqualTo(Duration.ofMillis(10));
        sim.close();
    }

    /** The mutex serialises the ten 1 ms deposits: 10 ms in all, and no deposit lost. */
    @SimulationTest(schedules = 100)
    void depositsTakeTurns(Simulation sim) {
        assertThat(sim.run(DirectStyle.deposits(10, 5))).isEqualTo(50);
        assertThat(sim.elapsed()).isEqualTo(Duration.ofMillis(10));
        sim.close();
    }

    /** The cancel at 10 ms ends the hour-long await at once: the simulation closes at 10 ms. */
    @SimulationTest(schedules = 100)
    void cancellationEndsTheHourLongAwait(Simulation sim) {
        List<String> log = new ArrayList<>();
        assertThat(sim.run(DirectStyle.cancelWhileWaiting(log))).isInstanceOf(Outcome.Cancelled.class);
        sim.close();
        assertThat(log).isEqualTo(DirectStyleTest.CANCEL_LOG);
        assertThat(sim.elapsed()).isEqualTo(Duration.ofMillis(10));
    }

    /** Executed tasks run in the simulator as direct bodies: the waiting task logs last, at 10 ms. */
    @SimulationTest(schedules = 100)
    void executedTasksWaitOnAWaitGroup(Simulation sim) {
        List<String> log = new ArrayList<>();
        DirectStyle.marlStyle(sim.scheduler(), 3, log);
        sim.close();
        assertThat(log).hasSize(4).endsWith("all 3 workers done");
        assertThat(sim.elapsed()).isEqualTo(Duration.ofMillis(10));
    }
}
