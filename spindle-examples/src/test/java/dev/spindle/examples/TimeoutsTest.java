package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Scheduler;
import dev.spindle.test.fixture.Patience;
import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The sleepers and the timed lookup of {@link Timeouts} behave as the README says. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TimeoutsTest {
    private static final Duration SHORT = Patience.scale(Duration.ofMillis(20));

    /** Every sleeper wakes, and together they take at least one sleep. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void allSleepersWake(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            Combinators.Timed<Integer> woke = fixture.run(Combinators.timed(Timeouts.sleepers(2_000, SHORT)));
            assertThat(woke.value()).isEqualTo(2_000);
            assertThat(woke.elapsed()).isGreaterThanOrEqualTo(SHORT);
        }
    }

    /** A lookup that beats its limit gives its value and is not cancelled. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void quickLookupGivesItsValue(SchedulerKind kind) {
        List<String> log = new CopyOnWriteArrayList<>();
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Timeouts.lookup(Duration.ZERO, Duration.ofHours(1), log))).isEqualTo("found");
        }
        assertThat(log).isEmpty();
    }

    /**
     * A lookup that overruns fails with TimeoutException no earlier than the limit; it is cancelled (its
     * onCancel runs) and leaves nothing behind: close() would otherwise wait an hour.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void slowLookupTimesOutAndIsCancelled(SchedulerKind kind) {
        List<String> log = new CopyOnWriteArrayList<>();
        try (SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            Instant start = scheduler.now(); // the scheduler's clock: virtual time in the simulation
            assertThatThrownBy(() -> fixture.run(Timeouts.lookup(Duration.ofHours(1), SHORT, log)))
                    .isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(TimeoutException.class);
            assertThat(Duration.between(start, scheduler.now())).isGreaterThanOrEqualTo(SHORT);
        }
        assertThat(log).containsExactly("lookup cancelled");
    }
}
