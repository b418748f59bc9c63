package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Scheduler;
import java.util.function.Supplier;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The bridges of {@link Interop} deliver results computed outside the scheduler. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class InteropTest {

    /** {@code fromFuture} gives the future's value, computed on the common pool. */
    @ParameterizedTest
    @MethodSource("dev.spindle.examples.SchedulerKinds#all")
    void fromFutureGivesTheFuturesValue(Supplier<Scheduler> kind) {
        try (Scheduler scheduler = kind.get()) {
            assertThat(scheduler.run(Interop.fromFuture())).isEqualTo("computed on ForkJoinPool.commonPool");
        }
    }

    /** {@code blocking} runs its body on a virtual thread. */
    @ParameterizedTest
    @MethodSource("dev.spindle.examples.SchedulerKinds#all")
    void blockingRunsOnAVirtualThread(Supplier<Scheduler> kind) {
        try (Scheduler scheduler = kind.get()) {
            assertThat(scheduler.run(Interop.blockingCall()))
                    .isEqualTo("blocking call ran on a virtual thread: true");
        }
    }
}
