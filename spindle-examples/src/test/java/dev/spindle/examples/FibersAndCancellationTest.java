package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Outcome;
import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The fibers of {@link FibersAndCancellation} run concurrently and are cancelled as the README says. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class FibersAndCancellationTest {

    /** Two fibers give 20 + 22; the sleeps overlap, so the whole takes at least one pause. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void twoFibersSum(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            Combinators.Timed<Integer> sum = fixture.run(Combinators.timed(FibersAndCancellation.sumInParallel()));
            assertThat(sum.value()).isEqualTo(42);
            assertThat(sum.elapsed()).isGreaterThanOrEqualTo(FibersAndCancellation.PAUSE);
        }
    }

    /** A sleeping fiber that is cancelled ends Cancelled, runs its onCancel finalizer, and leaves no timer. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void cancelledSleeperEndsCancelled(SchedulerKind kind) {
        List<String> log = new CopyOnWriteArrayList<>();
        try (SchedulerFixture fixture = kind.open()) { // close() would wait an hour if the sleeper lived on
            assertThat(fixture.run(FibersAndCancellation.cancelASleeper(log))).isEqualTo(Outcome.cancelled());
        }
        assertThat(log).containsExactly("sleeper cancelled: its timer is gone");
    }

    /** Cancelling a parent cancels its child; its detached fiber finishes normally. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void cancellationFollowsTheTree(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(FibersAndCancellation.cancelTree())).containsExactly(
                    Outcome.cancelled(), Outcome.cancelled(), Outcome.success("detached finished"));
        }
    }
}
