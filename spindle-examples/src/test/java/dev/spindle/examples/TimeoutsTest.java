package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The sleepers and the timed lookup of {@link Timeouts} behave as the README says. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TimeoutsTest {
    private static final Duration SHORT = Duration.ofMillis(20);

    /** Every sleeper wakes, and together they take at least one sleep. */
    @ParameterizedTest
    @MethodSource("dev.spindle.examples.SchedulerKinds#all")
    void allSleepersWake(Supplier<Scheduler> kind) {
        try (Scheduler scheduler = kind.get()) {
            Combinators.Timed<Integer> woke = scheduler.run(Combinators.timed(Timeouts.sleepers(2_000, SHORT)));
            assertThat(woke.value()).isEqualTo(2_000);
            assertThat(woke.elapsed()).isGreaterThanOrEqualTo(SHORT);
        }
    }

    /** A lookup that beats its limit gives its value and is not cancelled. */
    @ParameterizedTest
    @MethodSource("dev.spindle.examples.SchedulerKinds#all")
    void quickLookupGivesItsValue(Supplier<Scheduler> kind) {
        List<String> log = new CopyOnWriteArrayList<>();
        try (Scheduler scheduler = kind.get()) {
            assertThat(scheduler.run(Timeouts.lookup(Duration.ZERO, Duration.ofHours(1), log))).isEqualTo("found");
        }
        assertThat(log).isEmpty();
    }

    /**
     * A lookup that overruns fails with TimeoutException no earlier than the limit; it is cancelled (its
     * onCancel runs) and leaves nothing behind: close() would otherwise wait an hour.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.examples.SchedulerKinds#all")
    void slowLookupTimesOutAndIsCancelled(Supplier<Scheduler> kind) {
        List<String> log = new CopyOnWriteArrayList<>();
        try (Scheduler scheduler = kind.get()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> scheduler.run(Timeouts.lookup(Duration.ofHours(1), SHORT, log)))
                    .isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(TimeoutException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(SHORT);
        }
        assertThat(log).containsExactly("lookup cancelled");
    }
}
