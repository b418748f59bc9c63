package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The bridges of {@link Interop} deliver results computed outside the scheduler. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class InteropTest {

    /**
     * {@code fromFuture} gives the future's value, computed on a thread other than the fiber's (real threads
     * only: the simulator cannot wait for another thread, and reports a deadlock when the future is not done
     * yet).
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void fromFutureGivesTheFuturesValue(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Interop.fromFuture())).isEqualTo("computed on another thread: true");
        }
    }

    /** {@code blocking} runs its body on a virtual thread (real threads only: the simulator refuses it). */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void blockingRunsOnAVirtualThread(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Interop.blockingCall()))
                    .isEqualTo("blocking call ran on a virtual thread: true");
        }
    }
}
