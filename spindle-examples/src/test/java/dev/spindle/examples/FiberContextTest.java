package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import dev.spindle.Scheduler;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link FiberContext}: each request's lines carry its own id; self lets a watchdog cancel a fiber. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class FiberContextTest {

    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void eachRequestLogsItsOwnId(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            assertThat(FiberContext.twoRequests(scheduler)).containsExactly("[req-1] user lookup",
                    "[req-1] cart lookup", "[req-2] user lookup", "[req-2] cart lookup", "[-] idle");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void aWatchdogCancelsAFiberThroughItsHandle(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            assertThat(FiberContext.cancelledThroughSelf(scheduler)).isEqualTo("the fiber ended Cancelled[]");
        }
    }
}
