package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Failures surface where {@link Failures} says: from run, as outcomes, or at the uncaught handler. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class FailuresTest {

    /** {@code run} wraps a checked failure in CompletionException and rethrows an unchecked one as is. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void runRethrows(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            assertThat(Failures.whatRunThrows(scheduler, Failures.readPort(Map.of())))
                    .isEqualTo("CompletionException: java.io.IOException: no 'port' in the configuration");
            assertThat(Failures.whatRunThrows(scheduler, Failures.readPort(Map.of("port", "http"))))
                    .isEqualTo("NumberFormatException: For input string: \"http\"");
            assertThat(Failures.whatRunThrows(scheduler, Failures.readPort(Map.of("port", "8080"))))
                    .isEqualTo("returned 8080");
        }
    }

    /** {@code attempt} and {@code recover} turn the failure into a value. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void failuresBecomeValues(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Failures.readPort(Map.of()).attempt()))
                    .isInstanceOfSatisfying(Outcome.Failure.class, f ->
                            assertThat(f.error()).isInstanceOf(IOException.class));
            assertThat(fixture.run(Failures.readPort(Map.of()).recover(e -> 8080))).isEqualTo(8080);
        }
    }

    /** The uncaught handler receives the failure of a forgotten fiber and of a finalizer run on cancel. */
    @Test
    void unobservedFailuresReachTheUncaughtHandler() {
        assertThat(Failures.lostFailures()).containsExactlyInAnyOrder(
                "no 'port' in the configuration", "a finalizer failed during cancellation");
    }
}
