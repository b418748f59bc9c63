package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import dev.spindle.sync.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Scheduler#asExecutorService()} keeps the JDK's rules for an {@link ExecutorService}: submit and
 * the futures, invokeAll and invokeAny (timed and not), shutdown, shutdownNow, awaitTermination and
 * isTerminated of the view, which never closes the scheduler. Tasks run as direct bodies and wait on
 * Spindle primitives; a gate the test opens stands for work that takes long.
 */
class ExecutorServiceTest {

    /** A task that waits until {@code gate} is signalled, then gives {@code value}. */
    private static <T> Callable<T> after(Event gate, T value) {
        return () -> {
            gate.await().await();
            return value;
        };
    }

    /** A task that waits forever and counts its finalizer (its finally block) in {@code finalized}. */
    private static Callable<String> forever(AtomicInteger finalized) {
        return () -> {
            try {
                return Alt.<String>never().await();
            } finally {
                finalized.incrementAndGet();
            }
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void theSchedulerIsAnExecutor(SchedulerKind kind) {
        kind.use(s -> {
            Executor executor = s;
            AtomicInteger ran = new AtomicInteger();
            executor.execute(ran::incrementAndGet);
            kind.awaitDriving(s, () -> ran.get() == 1, "the task");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void submitGivesTheValueOrTheFailure(SchedulerKind kind) {
        kind.use(s -> {
            ExecutorService view = s.asExecutorService();
            Event gate = new Event(Event.Mode.MANUAL, true);
            IllegalStateException boom = new IllegalStateException("boom");
            assertThat(view.submit(after(gate, 42)).get()).isEqualTo(42);
            assertThat(view.submit(() -> { }, "done").get(1, TimeUnit.MINUTES)).isEqualTo("done");
            Future<Object> failing = view.submit(() -> {
                throw boom;
            });
            assertThatThrownBy(failing::get).isInstanceOf(ExecutionException.class).hasCause(boom);
            view.shutdown();
            assertThat(view.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aTimedGetTimesOutAndTheTaskGoesOn(SchedulerKind kind) {
        kind.use(s -> {
            ExecutorService view = s.asExecutorService();
            Event gate = new Event(Event.Mode.MANUAL, false);
            Future<Integer> f = view.submit(after(gate, 7));
            assertThatThrownBy(() -> f.get(1, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
            assertThat(f.isDone()).isFalse();
            gate.signal();
            assertThat(f.get()).isEqualTo(7);
            view.shutdown();
            assertThat(view.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingAFutureCancelsTheTasksFiber(SchedulerKind kind) {
        kind.use(s -> {
            ExecutorService view = s.asExecutorService();
            AtomicInteger finalized = new AtomicInteger();
            Event started = new Event(Event.Mode.MANUAL, false);
            Future<String> f = view.submit(() -> {
                started.signal();
                return forever(finalized).call();
            });
            kind.awaitDriving(s, started::isSignalled, "the task to start");
            assertThat(f.cancel(true)).isTrue();
            assertThat(f.isCancelled()).isTrue();
            assertThatThrownBy(f::get).isInstanceOf(CancellationException.class);
            view.shutdown();
            assertThat(view.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
            assertThat(finalized).hasValue(1);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void invokeAllGivesEveryFutureDoneInTaskOrder(SchedulerKind kind) {
        kind.use(s -> {
            ExecutorService view = s.asExecutorService();
            Event gate = new Event(Event.Mode.MANUAL, false);
            IllegalArgumentException bad = new IllegalArgumentException("bad");
            List<Callable<Integer>> tasks = List.of(after(gate, 1), () -> {
                gate.signal();
                throw bad;
            }, after(gate, 3));
            List<Future<Integer>> fs = view.invokeAll(tasks);
            assertThat(fs).hasSize(3).allMatch(Future::isDone);
            assertThat(fs.get(0).resultNow()).isEqualTo(1);
            assertThat(fs.get(1).exceptionNow()).isSameAs(bad);
            assertThat(fs.get(2).resultNow()).isEqualTo(3);
            view.shutdown();
            assertThat(view.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aTimedInvokeAllCancelsWhatHasNotFinished(SchedulerKind kind) {
        kind.use(s -> {
            ExecutorService view = s.asExecutorService();
            AtomicInteger finalized = new AtomicInteger();
            // the limit must pass (one task never ends); it is long enough for the quick one to end first
            List<Future<String>> fs = view.invokeAll(List.of(() -> "quick", forever(finalized)),
                    1, TimeUnit.SECONDS);
            assertThat(fs.get(0).resultNow()).isEqualTo("quick");
            assertThat(fs.get(1).isCancelled()).isTrue();
            view.shutdown();
            assertThat(view.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
            assertThat(finalized).as("the cancelled task's fiber ran its finally block").hasValue(1);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void invokeAnyGivesASuccessAndCancelsTheRest(SchedulerKind kind) {
        kind.use(s -> {
            ExecutorService view = s.asExecutorService();
            AtomicInteger finalized = new AtomicInteger();
            IVar<Void> started = new IVar<>("forever started");
            Callable<String> forever = forever(finalized);
            // the winner waits until the forever task runs: a task cancelled before it starts never runs,
            // so its finally block could not be observed (on 8 workers the winner may otherwise end first)
            String v = view.invokeAny(List.of(() -> {
                started.fill(null).await();
                return forever.call();
            }, () -> {
                throw new IllegalStateException("fails");
            }, () -> started.read().then(Job.result("wins")).await()));
            assertThat(v).isEqualTo("wins");
            view.shutdown();
            assertThat(view.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
            assertThat(finalized).hasValue(1);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void invokeAnyFailsWhenEveryTaskFailsAndTimesOut(SchedulerKind kind) {
        kind.use(s -> {
            ExecutorService view = s.asExecutorService();
            IllegalStateException first = new IllegalStateException("first");
            List<Callable<String>> failing = List.of(() -> {
                throw first;
            }, () -> {
                throw new IllegalStateException("second");
            });
            assertThatThrownBy(() -> view.invokeAny(failing)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(IllegalStateException.class);
            AtomicInteger finalized = new AtomicInteger();
            assertThatThrownBy(() -> view.invokeAny(List.of(forever(finalized)), 5, TimeUnit.MILLISECONDS))
                    .isInstanceOf(TimeoutException.class);
            assertThatThrownBy(() -> view.invokeAny(List.of())).isInstanceOf(IllegalArgumentException.class);
            view.shutdown();
            assertThat(view.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
            assertThat(finalized).hasValue(1);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void shutdownRejectsNewTasksAndTerminatesWhenTheViewsTasksEnd(SchedulerKind kind) {
        kind.use(s -> {
            ExecutorService view = s.asExecutorService();
            Event gate = new Event(Event.Mode.MANUAL, false);
            Future<String> f = view.submit(after(gate, "late"));
            view.shutdown();
            assertThat(view.isShutdown()).isTrue();
            assertThat(view.isTerminated()).isFalse();
            assertThatThrownBy(() -> view.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
            assertThatThrownBy(() -> view.submit(() -> 1)).isInstanceOf(RejectedExecutionException.class);
            assertThat(view.awaitTermination(1, TimeUnit.MILLISECONDS)).as("a task still waits").isFalse();
            gate.signal();
            assertThat(view.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
            assertThat(view.isTerminated()).isTrue();
            assertThat(f.resultNow()).isEqualTo("late");
            assertThat(s.isClosed()).as("the view's shutdown leaves the scheduler open").isFalse();
            assertThat(s.run(Job.result(1))).isEqualTo(1);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void awaitTerminationWaitsForTheViewsOwnTasksOnly(SchedulerKind kind) {
        kind.use(s -> {
            AtomicInteger finalized = new AtomicInteger();
            java.util.concurrent.CompletableFuture<Void> other = s.submit(TestJobs.forever()
                    .onCancel(TestJobs.increment(finalized)));
            ExecutorService view = s.asExecutorService();
            view.shutdown();
            assertThat(view.isTerminated()).isTrue();
            assertThat(view.awaitTermination(0, TimeUnit.SECONDS)).isTrue();
            other.cancel(true);
            kind.awaitDriving(s, () -> finalized.get() == 1, "the other fiber's finalizer");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void shutdownNowCancelsRunningTasksAndReturnsThoseThatNeverRan(SchedulerKind kind) {
        kind.use(s -> {
            ExecutorService view = s.asExecutorService();
            AtomicInteger finalized = new AtomicInteger();
            AtomicInteger ran = new AtomicInteger();
            List<Runnable> tasks = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Runnable r = () -> {
                    ran.incrementAndGet();
                    try {
                        Alt.never().await();
                    } finally {
                        finalized.incrementAndGet();
                    }
                };
                tasks.add(r);
                view.execute(r);
            }
            List<Runnable> neverRan = view.shutdownNow();
            assertThat(view.isShutdown()).isTrue();
            assertThat(view.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
            assertThat(tasks).containsAll(neverRan);
            assertThat(ran.get()).as("every task either ran or was returned").isEqualTo(8 - neverRan.size());
            assertThat(finalized.get()).as("every task that ran was cancelled").isEqualTo(ran.get());
            if (kind.isSingleThreaded()) {
                assertThat(neverRan).as("nothing drove the scheduler before shutdownNow").hasSize(8);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aClosedSchedulerRejectsTheViewsTasks(SchedulerKind kind) {
        ExecutorService view;
        try (SchedulerFixture f = kind.open()) {
            view = f.scheduler().asExecutorService();
        }
        assertThatThrownBy(() -> view.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
        view.shutdown();
        assertThat(view.isTerminated()).isTrue();
    }
}
