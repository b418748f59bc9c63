package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Outcome;
import dev.spindle.test.Simulation;
import dev.spindle.test.SimulationTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;

/** {@link Timeouts#lookup} tested in virtual time, under many schedules: exact times, no waiting. */
final class TimeoutsSimTest {

    /** An hour-long lookup under a 3 s limit fails at exactly 3 s of virtual time and is cancelled. */
    @SimulationTest(schedules = 100)
    void slowLookupTimesOutAtTheLimit(Simulation sim) {
        List<String> log = new CopyOnWriteArrayList<>();
        Outcome<String> outcome = sim.runOutcome(Timeouts.lookup(Duration.ofHours(1), Duration.ofSeconds(3), log));
        assertThat(outcome).isInstanceOfSatisfying(Outcome.Failure.class, failure ->
                assertThat(failure.error()).isInstanceOf(TimeoutException.class));
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(3));
        assertThat(log).containsExactly("lookup cancelled");
    }

    /** A lookup that answers in 2 s under a 3 s limit gives its value at exactly 2 s. */
    @SimulationTest(schedules = 100)
    void quickLookupAnswersOnTime(Simulation sim) {
        List<String> log = new CopyOnWriteArrayList<>();
        assertThat(sim.run(Timeouts.lookup(Duration.ofSeconds(2), Duration.ofSeconds(3), log))).isEqualTo("found");
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(2));
        assertThat(log).isEmpty();
    }
}
