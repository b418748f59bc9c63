package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The fibers of {@link FibersAndCancellation} run concurrently and are cancelled as the README says. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class FibersAndCancellationTest {

    /** Two fibers give 20 + 22; the sleeps overlap, so the whole takes at least one pause. */
    @ParameterizedTest
    @MethodSource("dev.spindle.examples.SchedulerKinds#all")
    void twoFibersSum(Supplier<Scheduler> kind) {
        try (Scheduler scheduler = kind.get()) {
            Combinators.Timed<Integer> sum = scheduler.run(Combinators.timed(FibersAndCancellation.sumInParallel()));
            assertThat(sum.value()).isEqualTo(42);
            assertThat(sum.elapsed()).isGreaterThanOrEqualTo(FibersAndCancellation.PAUSE);
        }
    }

    /** A sleeping fiber that is cancelled ends Cancelled, runs its onCancel finalizer, and leaves no timer. */
    @ParameterizedTest
    @MethodSource("dev.spindle.examples.SchedulerKinds#all")
    void cancelledSleeperEndsCancelled(Supplier<Scheduler> kind) {
        List<String> log = new CopyOnWriteArrayList<>();
        try (Scheduler scheduler = kind.get()) { // close() would wait an hour if the sleeper lived on
            assertThat(scheduler.run(FibersAndCancellation.cancelASleeper(log))).isEqualTo(Outcome.cancelled());
        }
        assertThat(log).containsExactly("sleeper cancelled: its timer is gone");
    }

    /** Cancelling a parent cancels its child; its detached fiber finishes normally. */
    @ParameterizedTest
    @MethodSource("dev.spindle.examples.SchedulerKinds#all")
    void cancellationFollowsTheTree(Supplier<Scheduler> kind) {
        try (Scheduler scheduler = kind.get()) {
            assertThat(scheduler.run(FibersAndCancellation.cancelTree())).containsExactly(
                    Outcome.cancelled(), Outcome.cancelled(), Outcome.success("detached finished"));
        }
    }
}
