package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Direct;
import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link DirectStyle} on real schedulers: loops over awaits, marl-style tasks, a blocking lock inside direct
 * bodies on a single worker, cancellation reaching an await, and await on an ordinary thread.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class DirectStyleTest {
    static final List<String> CANCEL_LOG = List.of("finally ran", "cancel returned");

    /** Surefire passes the export flag, so bodies run as continuations (the simulator needs them). */
    @Test
    void theTestsRunOnTheContinuationBackend() {
        assertThat(Direct.backend()).isEqualTo(Direct.Backend.CONTINUATION);
        assertThat(DirectStyle.backendInUse()).isEqualTo("continuations on the scheduler's workers");
    }

    /** The consumer's loop takes all ten numbers and joins the producer. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void loopsOverAwaits(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            for (int i = 0; i < 20; i++) {
                assertThat(fixture.run(DirectStyle.directSum())).isEqualTo(55);
            }
        }
    }

    /** The waiting task logs last, after every worker task; close() waits for all of them. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void executedTasksWaitOnAWaitGroup(SchedulerKind kind) {
        List<String> log = new CopyOnWriteArrayList<>();
        try (SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            DirectStyle.marlStyle(scheduler, 3, log);
        }
        assertThat(log).hasSize(4).endsWith("all 3 workers done");
        assertThat(log.subList(0, 3)).containsExactlyInAnyOrder("worker 0 done", "worker 1 done", "worker 2 done");
    }

    /**
     * lockBlocking inside direct bodies suspends fibers, not the worker: ten contending deposits complete
     * even on one worker thread, and none is lost.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void blockingLockSuspendsOnlyTheFiber(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(DirectStyle.deposits(10, 5))).isEqualTo(50);
        }
    }

    /** Cancellation reaches the hour-long await; the finally block runs before cancel returns. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void cancellationReachesTheAwait(SchedulerKind kind) {
        List<String> log = new CopyOnWriteArrayList<>();
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(DirectStyle.cancelWhileWaiting(log))).isInstanceOf(Outcome.Cancelled.class);
        }  // close() would wait an hour for a timer left behind
        assertThat(log).isEqualTo(CANCEL_LOG);
    }

    /** On an ordinary thread, await blocks it until the job, run on the common scheduler, ends. */
    @Test
    void awaitOnAnOrdinaryThread() {
        assertThat(Direct.inDirectBody()).isFalse();
        assertThat(DirectStyle.awaitOnAThread()).isEqualTo(42);
    }

    /** Inside a stackless job, await refuses with IllegalStateException rather than block the worker. */
    @Test
    void awaitInsideAStacklessJobIsRefused() {
        try (Scheduler scheduler = Scheduler.create(1)) {
            assertThat(scheduler.runOutcome(Job.of(() -> Job.result(1).await())))
                    .isInstanceOfSatisfying(Outcome.Failure.class, failure ->
                            assertThat(failure.error()).isInstanceOf(IllegalStateException.class));
        }
    }

    /** The simulator runs the direct producer and consumer in exactly 10 ms of virtual time. */
    @Test
    void directBodiesRunInTheSimulator() {
        assertThat(DirectStyle.directSumInVirtualTime()).isEqualTo("55 after PT0.01S");
    }
}
