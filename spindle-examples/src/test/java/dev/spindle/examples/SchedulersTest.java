package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The scheduler entry points of {@link Schedulers} behave as the README says. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class SchedulersTest {

    /** A single-threaded scheduler runs its jobs on the thread that calls {@code run}. */
    @Test
    void singleThreadedRunsOnTheCaller() {
        assertThat(Schedulers.singleThreadedRunsOnCaller()).isEqualTo(Thread.currentThread().getName());
    }

    /** {@code submit} gives a future of the job's value. */
    @Test
    void submitGivesAFuture() {
        assertThat(Schedulers.submitAndCompose()).isEqualTo("the answer is 42");
    }

    /** {@code close} returns only after every executed task has run. */
    @Test
    void closeWaitsForExecutedTasks() {
        assertThat(Schedulers.executeThenClose(1_000)).isEqualTo(1_000);
    }

    /** A thread bound to a single-threaded scheduler runs the tasks it executed while it waits for them. */
    @Test
    void boundThreadRunsItsTasksWhileItWaits() throws InterruptedException {
        assertThat(Schedulers.bindAndWait(10)).isEqualTo(10);
    }

    /** {@code shutdownNow} cancels what is still running, and the submitted future reports it. */
    @Test
    void shutdownNowCancels() {
        assertThat(Schedulers.shutdownNowCancels()).isTrue();
    }

    @Test
    void shutdownFromInsideReturnsAtOnceAndTheSchedulerTerminates() {
        assertThat(Schedulers.shutdownFromInside()).isEqualTo("closed = true, terminated = true");
    }

    /** A closed scheduler refuses new jobs with a message that says so. */
    @Test
    void closedSchedulerRefuses() {
        assertThat(Schedulers.closedRefuses()).isEqualTo("scheduler example is closed");
    }
}
