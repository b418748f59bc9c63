package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import dev.spindle.Scheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link ExecutorsAndFutures}: a scheduler behind the JDK's executor and future interfaces. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class ExecutorsAndFuturesTest {

    /** On a threaded scheduler the async supplier runs on a worker. */
    @Test
    void supplyAsyncRunsOnTheScheduler() {
        try (Scheduler scheduler = Scheduler.create(2)) {
            assertThat(ExecutorsAndFutures.supplyAsync(scheduler)).isEqualTo("SUPPLIED ON A FIBER");
        }
    }

    /** invokeAll gives the tasks' values in task order; the scheduler stays open after the view's shutdown. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void invokeAllGivesTheValuesInTaskOrder(SchedulerKind kind) throws Exception {
        try (SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            assertThat(ExecutorsAndFutures.invokeAll(scheduler)).containsExactly("slow", "quick");
            assertThat(scheduler.isClosed()).isFalse();
        }
    }

    /** The fiber's future gives its value. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void aFiberBecomesAFuture(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            assertThat(ExecutorsAndFutures.fiberAsFuture(scheduler)).isEqualTo(42);
        }
    }
}
