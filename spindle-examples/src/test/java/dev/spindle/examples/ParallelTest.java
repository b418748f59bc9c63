package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Either;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code all}, {@code race} and {@code any} in {@link Parallel} settle as the README says. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class ParallelTest {

    /** {@code all} gives the values in input order, not in finishing order. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void allKeepsInputOrder(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Parallel.quotes())).containsExactly(101, 99, 100);
        }
    }

    /** A failing child fails {@code all} and cancels the hour-long sibling (close() would wait otherwise). */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void allFailsFastAndCancelsTheRest(SchedulerKind kind) {
        List<String> log = new CopyOnWriteArrayList<>();
        try (SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            assertThat(scheduler.runOutcome(Parallel.quotesWithOneBroken(log)))
                    .isInstanceOfSatisfying(Outcome.Failure.class, f ->
                            assertThat(f.error()).isInstanceOf(IOException.class)
                                    .hasMessage("quote service down"));
            assertThat(log).containsExactly("hour-long quote cancelled");
        }
    }

    /** The faster mirror wins; the slower one is cancelled and its finalizer ran before race returned. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void raceCancelsTheLoser(SchedulerKind kind) {
        List<String> log = new CopyOnWriteArrayList<>();
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Parallel.fastestMirror(log))).isEqualTo(new Either.Right<>("backup"));
            assertThat(log).containsExactly("primary cancelled");
        }
    }

    /** {@code any} skips a failure and gives the first success. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void anyGivesTheFirstSuccess(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Parallel.firstReplica())).isEqualTo("replica 2");
        }
    }
}
