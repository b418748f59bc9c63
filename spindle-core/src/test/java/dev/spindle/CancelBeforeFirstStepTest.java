package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.sync.WaitGroup;
import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A fiber whose cancellation arrives before its first step still enters its job: finalizers that wrap the
 * whole job ({@code ensure}, {@code onCancel}) run, and the cancel takes effect at the job's first bind or
 * wait. On one worker the children below are cancelled before they have run at all; on more workers some
 * may have started first, and the same must hold for them.
 */
@Timeout(60)
class CancelBeforeFirstStepTest {
    private static final int CHILDREN = 1_000;
    private static final int ROUNDS = 20;

    /** Counts the runs of the two finalizers of the jobs it makes. */
    private static final class Finalizers {
        final AtomicInteger ensured = new AtomicInteger();
        final AtomicInteger onCancel = new AtomicInteger();

        /** A job that never ends by itself, with both finalizers. */
        Job<Void> child() {
            return TestJobs.forever().onCancel(TestJobs.increment(onCancel)).ensure(TestJobs.increment(ensured));
        }

        void assertEachRan(int times) {
            assertThat(ensured).as("ensure finalizer runs").hasValue(times);
            assertThat(onCancel).as("onCancel finalizer runs").hasValue(times);
        }
    }

    /** A zero timeout: the race runs its sleep first (a worker's stack is LIFO) and cancels the job unstarted. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void aJobCancelledByAZeroTimeoutBeforeItsFirstStepRunsItsFinalizers(SchedulerKind kind) {
        kind.use(s -> {
            Finalizers fin = new Finalizers();
            Outcome<Void> outcome = s.runOutcome(fin.child().timeout(Duration.ZERO));
            assertTimedOut(outcome);
            fin.assertEachRan(1);
        });
    }

    /** The cancel is observed at the first bind: what follows it never runs. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void aJobCancelledBeforeItsFirstStepStopsAtItsFirstBind(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean beforeBind = new AtomicBoolean();
            AtomicBoolean afterBind = new AtomicBoolean();
            Job<Void> body = Job.run(() -> beforeBind.set(true)).then(Job.run(() -> afterBind.set(true)));
            assertTimedOut(s.runOutcome(body.timeout(Duration.ZERO)));
            assertThat(beforeBind).as("the job was entered").isTrue();
            assertThat(afterBind).as("what follows the first bind").isFalse();
        });
    }

    /** A sibling's cancellation ends {@code Job.all} and cancels the sibling queued behind it, unstarted. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void aSiblingCancelledByJobAllBeforeItsFirstStepRunsItsFinalizers(SchedulerKind kind) {
        kind.use(s -> {
            Finalizers fin = new Finalizers();
            Outcome<?> outcome = s.runOutcome(Job.all(List.of(fin.child(), Job.<Void>cancelled())));
            assertThat(outcome).isInstanceOf(Outcome.Cancelled.class);
            fin.assertEachRan(1);
        });
    }

    /** Cancelling a submitted fiber's future before any thread has driven the scheduler. */
    @Test
    void aFiberCancelledThroughItsFutureBeforeItRanRunsItsFinalizers() {
        SchedulerKind.SINGLE_THREADED.use(s -> {
            Finalizers fin = new Finalizers();
            CompletableFuture<Void> future = s.submit(fin.child());
            future.cancel(true);
            s.run(Job.unit()); // drives the scheduler: the cancelled fiber takes its first step
            assertThat(future).isCancelled();
            fin.assertEachRan(1);
        });
    }

    /**
     * A child started by a fiber that is already cancelled is cancelled from birth: here the parent's
     * zero timeout cancels it before its first step, and that step starts the child.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void aChildStartedByACancelledParentRunsItsFinalizers(SchedulerKind kind) {
        kind.use(s -> {
            Finalizers fin = new Finalizers();
            Job<Void> parent = fin.child().start().flatMap(f -> TestJobs.forever());
            assertTimedOut(s.runOutcome(parent.timeout(Duration.ZERO)));
            fin.assertEachRan(1);
        });
    }

    /**
     * The README's coordination pattern under a parent's timeout, as it was found hanging: every child must
     * count the group down however early the timeout cancels it. Timeouts of 1 to 3 ms in {@code ROUNDS}
     * rounds catch children at every stage, before their first step included (on more than one worker).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void childrenOfATimedOutParentAllCountTheirWaitGroupDown(SchedulerKind kind) {
        kind.use(s -> {
            for (int round = 0; round < ROUNDS; round++) {
                WaitGroup pending = new WaitGroup(0, "children");
                Job<Void> fanOut = Job.unit();
                for (int i = 0; i < CHILDREN; i++) {
                    Job<Void> task = Job.sleep(Duration.ofMillis(i % 3)).ensure(Job.run(pending::done));
                    // counted up and started in one uncancelable region: every bind is a cancellation
                    // point, so a parent cancelled between the two would count a child it never started
                    Job<Void> countAndStart = Job.uncancelable(Job.run(() -> pending.add(1)).then(task.start()))
                            .then(Job.unit());
                    fanOut = fanOut.then(countAndStart);
                }
                Duration limit = Duration.ofMillis(1 + round % 3);
                s.run(fanOut.then(pending.await()).timeout(limit).attempt());
                s.run(pending.await()); // hangs (the test times out) if a child skipped its finalizer
                assertThat(pending.count()).as("round %d, timeout %s", round, limit).isZero();
            }
        });
    }

    /**
     * shutdownNow() from outside while none of the submitted fibers has run: every worker is held by a
     * spinner (a single-threaded scheduler is simply not driven), so all of them are cancelled before their
     * first step, and their finalizers run while close() drains the scheduler.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void fibersCancelledByShutdownNowBeforeTheirFirstStepRunTheirFinalizers(SchedulerKind kind) {
        Finalizers fin = new Finalizers();
        AtomicInteger spinning = new AtomicInteger();
        UncaughtRecorder uncaught = new UncaughtRecorder();
        SchedulerFixture fixture = kind.open(uncaught);
        Scheduler s = fixture.scheduler();
        int spinners = kind.isSingleThreaded() ? 0 : s.workerCount();
        for (int i = 0; i < spinners; i++) { // holds a worker, without a bind, until close() has begun
            s.submit(Job.run(() -> {
                spinning.incrementAndGet();
                while (!s.isClosed()) {
                    Thread.onSpinWait();
                }
            }));
        }
        Await.until(() -> spinning.get() == spinners, "every worker to be held by a spinner");
        List<CompletableFuture<Void>> fibers = new ArrayList<>();
        for (int i = 0; i < CHILDREN; i++) {
            fibers.add(s.submit(fin.child()));
        }
        s.shutdownNow();
        assertThat(fibers).allSatisfy(f -> assertThat(f).isCancelled());
        fin.assertEachRan(CHILDREN);
        fixture.close();
        uncaught.assertNone();
    }

    private static void assertTimedOut(Outcome<?> outcome) {
        assertThat(outcome).isInstanceOfSatisfying(Outcome.Failure.class,
                f -> assertThat(f.error()).isInstanceOf(TimeoutException.class));
    }
}
