package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.fixture.SchedulerKind;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Interop with the world outside Spindle: {@code fromFuture} (lazy, asks for the stage each run, and
 * cancels it when its fiber is cancelled), {@code Scheduler.submit} (a future whose cancellation cancels
 * the fiber) and {@code blocking} (a virtual thread per call; the fiber waits without holding a worker).
 */
@Timeout(60)
class InteropTest {
    // ---------------------------------------------------------------- fromFuture

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void fromFutureIsLazyAndAsksForTheStageOnEveryRun(SchedulerKind kind) {
        kind.use(s -> {
            AtomicInteger asked = new AtomicInteger();
            Job<Integer> job = Job.fromFuture(() -> CompletableFuture.supplyAsync(asked::incrementAndGet));
            assertThat(asked).as("after building").hasValue(0);
            assertThat(s.run(job)).isEqualTo(1);
            assertThat(s.run(job)).isEqualTo(2);
            assertThat(s.run(Job.fromFuture(() -> CompletableFuture.completedFuture("done")))).isEqualTo("done");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void fromFutureWaitsForALateCompletionWithoutHoldingAWorker(SchedulerKind kind) {
        kind.use(s -> {
            CompletableFuture<String> late = new CompletableFuture<>();
            Job<String> job = Job.all(List.of(Job.fromFuture(() -> late),
                            Job.yieldNow().then(Job.run(() -> late.complete("completed by a sibling fiber")))
                                    .then(Job.result("sibling"))))
                    .map(l -> l.get(0));
            assertThat(s.run(job)).isEqualTo("completed by a sibling fiber");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void fromFutureFailsWithTheUnwrappedFailureOfTheStageOrOfTheSupplier(SchedulerKind kind) {
        kind.use(s -> {
            IOException io = new IOException("io");
            assertThat(s.runOutcome(Job.fromFuture(() -> CompletableFuture.failedFuture(io))))
                    .isEqualTo(Outcome.failure(io));
            assertThat(s.runOutcome(Job.fromFuture(() -> CompletableFuture.supplyAsync(() -> {
                throw new IllegalStateException("async");
            })))).isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error())
                    .isInstanceOf(IllegalStateException.class).hasMessage("async"));
            IllegalStateException boom = new IllegalStateException("supplier");
            assertThat(s.runOutcome(Job.fromFuture(() -> {
                throw boom;
            }))).isEqualTo(Outcome.failure(boom));
            assertThat(s.runOutcome(Job.fromFuture(() -> null))).isInstanceOfSatisfying(Outcome.Failure.class,
                    f -> assertThat(f.error()).isInstanceOf(NullPointerException.class).hasMessageContaining("null"));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingTheWaitingFiberCancelsTheFuture(SchedulerKind kind) {
        kind.use(s -> {
            CompletableFuture<String> never = new CompletableFuture<>();
            AtomicInteger finalized = new AtomicInteger();
            Fiber<String> f = s.run(Job.fromFuture(() -> never).ensure(TestJobs.increment(finalized)).start());
            s.run(f.cancel());
            assertThat(s.run(f.outcome())).isEqualTo(Outcome.cancelled());
            assertThat(never.isCancelled()).as("the future was cancelled with its fiber").isTrue();
            assertThat(finalized).hasValue(1);
        });
    }

    /**
     * A {@code CompletionStage} may refuse {@code toCompletableFuture()} (the interface allows it), so the
     * stage cannot be cancelled: cancelling the waiting fiber must still withdraw it, and the stage's late
     * result is dropped.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    @Timeout(20)
    void cancellingAFiberWaitingForAStageThatCannotBeCancelledStillEndsIt(SchedulerKind kind) {
        kind.use(s -> {
            CompletableFuture<String> source = new CompletableFuture<>();
            CompletionStage<String> stage = refusingToCompletableFuture(source.minimalCompletionStage());
            Fiber<String> f = s.run(Job.fromFuture(() -> stage).start());
            try {
                assertThat(s.runOutcome(f.cancel())).isEqualTo(Outcome.success(null));
                assertThat(s.run(f.outcome())).isEqualTo(Outcome.cancelled());
            } finally {
                source.complete("late");
            }
            assertThat(s.run(f.outcome())).isEqualTo(Outcome.cancelled());
        });
    }

    @SuppressWarnings("unchecked")
    private static <A> CompletionStage<A> refusingToCompletableFuture(CompletionStage<A> delegate) {
        return (CompletionStage<A>) Proxy.newProxyInstance(InteropTest.class.getClassLoader(),
                new Class<?>[] {CompletionStage.class}, (proxy, method, args) -> {
                    if (method.getName().equals("toCompletableFuture")) {
                        throw new UnsupportedOperationException("this stage does not interoperate");
                    }
                    try {
                        return method.invoke(delegate, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    // ---------------------------------------------------------------- submit

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void submitGivesAFutureOfTheFibersValueOrFailure(SchedulerKind kind) {
        kind.use(s -> {
            CompletableFuture<Integer> value = s.submit(Job.yieldNow().then(Job.result(5)));
            IllegalStateException boom = new IllegalStateException("boom");
            CompletableFuture<Integer> failure = s.submit(Job.failure(boom));
            CompletableFuture<Integer> cancelled = s.submit(Job.cancelled());
            // (a single-threaded scheduler runs them only while some thread drives it)
            kind.awaitDriving(s, () -> value.isDone() && failure.isDone() && cancelled.isDone(), "the futures");
            assertThat(value.get(Await.LONG.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(5);
            assertThatThrownBy(() -> failure.get(Await.LONG.toMillis(), TimeUnit.MILLISECONDS))
                    .isInstanceOf(ExecutionException.class).hasCause(boom);
            assertThat(cancelled).isCancelled();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingTheFutureOfSubmitCancelsTheFiber(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean started = new AtomicBoolean();
            CountDownLatch onCancel = new CountDownLatch(1);
            AtomicInteger after = new AtomicInteger();
            CompletableFuture<Integer> future = s.submit(TestJobs.signalThenForever(started)
                    .then(Job.of(after::incrementAndGet))
                    .onCancel(Job.run(onCancel::countDown)));
            kind.awaitDriving(s, started::get, "the submitted fiber to start");
            assertThat(future.cancel(true)).isTrue();
            assertThat(future).isCancelled();
            if (kind.isSingleThreaded()) {
                kind.awaitDriving(s, () -> onCancel.getCount() == 0, "the fiber's onCancel");
            }
            Await.latch(onCancel, "the fiber's onCancel");
            assertThat(after).hasValue(0);
            assertThat(FiberFixtures.pendingTimers(s)).as("the cancelled sleep's timer").isZero();
        });
    }

    // ---------------------------------------------------------------- blocking

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void blockingRunsOnAVirtualThreadAndGivesItsValueOrFailure(SchedulerKind kind) {
        kind.use(s -> {
            assertThat(s.run(Job.blocking(() -> Thread.currentThread().isVirtual()))).isTrue();
            IOException io = new IOException("io");
            assertThat(s.runOutcome(Job.blocking(() -> {
                throw io;
            }))).isEqualTo(Outcome.failure(io));
            assertThatThrownBy(() -> s.run(Job.blocking(() -> {
                throw io;
            }))).isInstanceOf(CompletionException.class).hasCause(io);
        });
    }

    /** On one worker, two blocking calls that wait for each other can only finish if neither holds it. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void twoBlockingCallsThatWaitForEachOtherBothComplete(SchedulerKind kind) {
        kind.use(s -> {
            CountDownLatch a = new CountDownLatch(1);
            CountDownLatch b = new CountDownLatch(1);
            Job<String> first = Job.blocking(() -> {
                a.countDown();
                return b.await(Await.LONG.toMillis(), TimeUnit.MILLISECONDS) ? "first" : "first timed out";
            });
            Job<String> second = Job.blocking(() -> {
                b.countDown();
                return a.await(Await.LONG.toMillis(), TimeUnit.MILLISECONDS) ? "second" : "second timed out";
            });
            assertThat(s.run(Job.all(List.of(first, second)))).containsExactly("first", "second");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void aFiberRunsOnTheOnlyWorkerWhileABlockingCallWaitsForIt(SchedulerKind kind) {
        kind.use(s -> {
            CountDownLatch fiberRan = new CountDownLatch(1);
            Job<Boolean> waiter = Job.blocking(() -> fiberRan.await(Await.LONG.toMillis(), TimeUnit.MILLISECONDS));
            Job<Boolean> fiber = Job.yieldNow().then(Job.run(fiberRan::countDown)).then(Job.result(true));
            assertThat(s.run(Job.all(List.of(waiter, fiber)))).containsExactly(true, true);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingAFiberInABlockingCallInterruptsTheThreadWithoutWaitingForIt(SchedulerKind kind) {
        kind.use(s -> {
            CountDownLatch inCall = new CountDownLatch(1);
            CountDownLatch interrupted = new CountDownLatch(1);
            CountDownLatch mayReturn = new CountDownLatch(1);
            AtomicReference<Thread> thread = new AtomicReference<>();
            Job<String> call = Job.blocking(() -> {
                thread.set(Thread.currentThread());
                inCall.countDown();
                try {
                    Thread.sleep(Await.LONG.toMillis());
                    return "slept";
                } catch (InterruptedException e) {
                    interrupted.countDown();
                    mayReturn.await(); // keeps running after the fiber has ended: cancel() must not wait
                    return "interrupted";
                }
            });
            Fiber<String> f = s.run(call.start());
            Await.latch(inCall, "the blocking call to start");
            s.run(f.cancel());
            assertThat(s.run(f.outcome())).isEqualTo(Outcome.cancelled());
            Await.latch(interrupted, "the call's thread to be interrupted");
            assertThat(thread.get().isAlive()).as("the call still runs after its fiber ended").isTrue();
            mayReturn.countDown();
            Await.join(thread.get());
        });
    }
}
