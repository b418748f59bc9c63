package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Either;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code all}, {@code race} and {@code any} in {@link Parallel} settle as the README says. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class ParallelTest {

    /** {@code all} gives the values in input order, not in finishing order. */
    @ParameterizedTest
    @MethodSource("dev.spindle.examples.SchedulerKinds#all")
    void allKeepsInputOrder(Supplier<Scheduler> kind) {
        try (Scheduler scheduler = kind.get()) {
            assertThat(scheduler.run(Parallel.quotes())).containsExactly(101, 99, 100);
        }
    }

    /** A failing child fails {@code all} and cancels the hour-long sibling (close() would wait otherwise). */
    @ParameterizedTest
    @MethodSource("dev.spindle.examples.SchedulerKinds#all")
    void allFailsFastAndCancelsTheRest(Supplier<Scheduler> kind) {
        List<String> log = new CopyOnWriteArrayList<>();
        try (Scheduler scheduler = kind.get()) {
            assertThat(scheduler.runOutcome(Parallel.quotesWithOneBroken(log)))
                    .isInstanceOfSatisfying(Outcome.Failure.class, f ->
                            assertThat(f.error()).isInstanceOf(IOException.class)
                                    .hasMessage("quote service down"));
            assertThat(log).containsExactly("hour-long quote cancelled");
        }
    }

    /** The faster mirror wins; the slower one is cancelled and its finalizer ran before race returned. */
    @ParameterizedTest
    @MethodSource("dev.spindle.examples.SchedulerKinds#all")
    void raceCancelsTheLoser(Supplier<Scheduler> kind) {
        List<String> log = new CopyOnWriteArrayList<>();
        try (Scheduler scheduler = kind.get()) {
            assertThat(scheduler.run(Parallel.fastestMirror(log))).isEqualTo(new Either.Right<>("backup"));
            assertThat(log).containsExactly("primary cancelled");
        }
    }

    /** {@code any} skips a failure and gives the first success. */
    @ParameterizedTest
    @MethodSource("dev.spindle.examples.SchedulerKinds#all")
    void anyGivesTheFirstSuccess(Supplier<Scheduler> kind) {
        try (Scheduler scheduler = kind.get()) {
            assertThat(scheduler.run(Parallel.firstReplica())).isEqualTo("replica 2");
        }
    }
}
