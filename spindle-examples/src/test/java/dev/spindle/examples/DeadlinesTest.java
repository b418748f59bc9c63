package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import dev.spindle.Scheduler;
import dev.spindle.test.Simulation;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Deadlines}, on every scheduler kind and in simulation (exact in virtual time). */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class DeadlinesTest {

    /** In real time the count depends on timing, so only its bounds are checked; a deadline is never early. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void aDeadlineBoundsTheWholeBatch(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            assertThat(Deadlines.repliesBeforeTheDeadline(scheduler)).isBetween(0, 2);
            assertThat(Deadlines.lateForTheNextSecond(scheduler).isNegative()).as("woke before the deadline").isFalse();
        }
    }

    /** In virtual time exactly two replies beat the deadline, and the wake-up is on the second. */
    @Test
    void inSimulationTheCountIsExact() {
        try (Simulation sim = Simulation.builder().startAt(Instant.parse("2030-01-01T00:00:00.5Z")).build()) {
            assertThat(Deadlines.repliesBeforeTheDeadline(sim.scheduler())).isEqualTo(2);
            assertThat(Deadlines.lateForTheNextSecond(sim.scheduler())).isZero();
            assertThat(sim.now()).isEqualTo(Instant.parse("2030-01-01T00:00:01Z"));
        }
    }
}
