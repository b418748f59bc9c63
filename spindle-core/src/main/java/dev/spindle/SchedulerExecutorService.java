package dev.spindle;

import dev.spindle.sync.Event;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link java.util.concurrent.ExecutorService} view of a scheduler ({@link Scheduler#asExecutorService()}):
 * each task runs as a root fiber of the scheduler; the view keeps its own lifecycle.
 *
 * <pre>
 * Implementation overview
 * =======================
 * Tasks
 *   Every accepted command becomes a ViewTask, registered in live (under lock) before its fiber starts and
 *   removed by a finalizer around the fiber's whole job, so it leaves live exactly once even when the fiber
 *   is cancelled before the command ran. A ViewTask runs its command only if it claims it (NEW -> RUNNING);
 *   shutdownNow() claims the others first (NEW -> DRAINED), so a command it returns never runs.
 *
 * Lifecycle
 *   running --shutdown()--> shut down --last live task ends--> terminated (the event is signalled once).
 *   shutdown and live are guarded by lock; a command is accepted only while not shut down, so after
 *   shutdown() live only shrinks.
 *
 * Futures
 *   newTaskFor gives a FiberTask, a FutureTask that learns its fiber when executed: cancelling it cancels
 *   the fiber instead of interrupting a worker thread. Its get() waits through the scheduler (waitOn), so
 *   a single-threaded scheduler or a simulation is driven meanwhile.
 * </pre>
 */
final class SchedulerExecutorService extends AbstractExecutorService {
    private final Scheduler scheduler;
    private final Object lock = new Object();
    /** Tasks accepted whose fiber has not ended, in acceptance order. Guarded by lock. */
    private final Set<ViewTask> live = new LinkedHashSet<>();
    /** Whether shutdown() or shutdownNow() was called. Guarded by lock. */
    private boolean shutdown;
    /** Signalled once the view is shut down and its last task has ended. */
    private final Event terminated = new Event(Event.Mode.MANUAL, false, "termination of an executor view");

    SchedulerExecutorService(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    // ---------------------------------------------------------------- running tasks

    @Override
    public void execute(Runnable command) {
        ViewTask t = new ViewTask(Objects.requireNonNull(command, "command"));
        synchronized (lock) {
            if (shutdown) {
                throw new RejectedExecutionException("the executor view of " + scheduler + " is shut down");
            }
            live.add(t);
        }
        Job<Void> job = scheduler.taskJob(t).ensure(Job.run(() -> ended(t)));
        FiberImpl<Void> fiber;
        try {
            fiber = scheduler.startRoot(job, !(command instanceof FiberTask<?>));
        } catch (IllegalStateException closed) {
            ended(t);
            throw new RejectedExecutionException("the scheduler is closed: " + scheduler, closed);
        }
        t.fiber = fiber;
        if (command instanceof FiberTask<?> ft) {
            ft.bind(fiber);
        }
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
        return new FiberTask<>(callable);
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
        return new FiberTask<>(Executors.callable(runnable, value));
    }

    /** A task's fiber has ended (or never started): it leaves live; the last one after shutdown terminates. */
    private void ended(ViewTask t) {
        boolean nowTerminated;
        synchronized (lock) {
            nowTerminated = live.remove(t) && shutdown && live.isEmpty();
        }
        if (nowTerminated) {
            terminated.signal();
        }
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public void shutdown() {
        boolean nowTerminated;
        synchronized (lock) {
            nowTerminated = !shutdown && live.isEmpty();
            shutdown = true;
        }
        if (nowTerminated) {
            terminated.signal();
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        List<ViewTask> tasks;
        synchronized (lock) {
            tasks = new ArrayList<>(live);
        }
        shutdown();
        List<Runnable> neverRun = new ArrayList<>();
        for (ViewTask t : tasks) {
            if (t.drain()) {
                neverRun.add(t.command);
            }
            FiberImpl<?> f = t.fiber;
            if (f != null) {
                f.requestCancel(f.engine.currentWorker());
            }
        }
        return neverRun;
    }

    @Override
    public boolean isShutdown() {
        synchronized (lock) {
            return shutdown;
        }
    }

    @Override
    public boolean isTerminated() {
        synchronized (lock) {
            return shutdown && live.isEmpty();
        }
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        Duration limit = Duration.ofNanos(Math.max(0, unit.toNanos(timeout)));
        if (isTerminated()) {
            return true;
        }
        Outcome<Boolean> o = waitOn(terminated.await(limit));
        return o != null ? o.getOrThrow() : terminated.awaitBlocking(limit);
    }

    // ---------------------------------------------------------------- invokeAny

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        try {
            return invokeAny(tasks, -1);
        } catch (TimeoutException impossible) {
            throw new AssertionError(impossible);
        }
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return invokeAny(tasks, Math.max(0, unit.toNanos(timeout)));
    }

    /** The first task to succeed wins and the others are cancelled; {@code nanos < 0}: no time limit. */
    private <T> T invokeAny(Collection<? extends Callable<T>> tasks, long nanos)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(tasks, "tasks");
        if (tasks.isEmpty()) {
            throw new IllegalArgumentException("invokeAny needs at least one task");
        }
        List<FiberTask<T>> started = new ArrayList<>(tasks.size());
        try {
            List<Job<T>> results = new ArrayList<>(tasks.size());
            for (Callable<T> c : tasks) {
                FiberTask<T> t = new FiberTask<>(Objects.requireNonNull(c, "task"));
                started.add(t);
                execute(t);
                results.add(t.result());
            }
            Job<Either<T, Void>> first = Job.race(Job.any(results),
                    nanos < 0 ? Alt.<Void>never() : Job.sleep(Duration.ofNanos(nanos)));
            Outcome<Either<T, Void>> o = waitOn(first);
            if (o == null) { // the scheduler closed meanwhile: its fibers still finish; take the first success
                return firstSuccess(started);
            }
            return switch (o) {
                case Outcome.Success<Either<T, Void>> s -> switch (s.value()) {
                    case Either.Left<T, Void> left -> left.value();
                    case Either.Right<T, Void> right -> throw new TimeoutException("no task succeeded within "
                            + Duration.ofNanos(nanos));
                };
                case Outcome.Failure<Either<T, Void>> f -> throw new ExecutionException(f.error());
                case Outcome.Cancelled<Either<T, Void>> c -> throw new CancellationException(
                        "invokeAny was cancelled");
            };
        } finally {
            for (FiberTask<T> t : started) {
                t.cancel(true);
            }
        }
    }

    private static <T> T firstSuccess(List<FiberTask<T>> tasks) throws InterruptedException, ExecutionException {
        ExecutionException last = null;
        for (FiberTask<T> t : tasks) {
            try {
                return t.get();
            } catch (ExecutionException e) {
                last = e;
            }
        }
        throw last;
    }

    // ---------------------------------------------------------------- waiting

    /**
     * Runs {@code job} to its end for a caller that blocks: inside a direct body of this scheduler it
     * suspends only that fiber; elsewhere it runs as a root fiber ({@link Scheduler#runOutcome}, which
     * drives a single-threaded scheduler or a simulation). Null when the scheduler refuses it (closed): the
     * caller then blocks on the JDK's own means.
     */
    private <T> Outcome<T> waitOn(Job<T> job) {
        DirectBody<?> body = DirectBody.current();
        if (body != null && body.engine() == scheduler.engine) {
            return job.attempt().await();
        }
        try {
            return scheduler.runOutcome(job);
        } catch (IllegalStateException closed) {
            if (!scheduler.isClosed()) {
                throw closed;
            }
            return null;
        }
    }

    @Override
    public String toString() {
        synchronized (lock) {
            return "ExecutorService view of " + scheduler + "[" + (shutdown ? live.isEmpty() ? "terminated"
                    : "shut down" : "running") + ", " + live.size() + " tasks]";
        }
    }

    // ---------------------------------------------------------------- tasks

    /** One accepted command: runs it once, unless shutdownNow() drained it first. */
    private static final class ViewTask implements Runnable {
        private static final int NEW = 0;
        private static final int RUNNING = 1;
        private static final int DRAINED = 2;

        final Runnable command;
        /** The task's fiber, once started; read by shutdownNow() to cancel it. */
        volatile FiberImpl<?> fiber;
        private final AtomicInteger state = new AtomicInteger();

        ViewTask(Runnable command) {
            this.command = command;
        }

        @Override
        public void run() {
            if (state.compareAndSet(NEW, RUNNING)) {
                command.run();
            }
        }

        /** Claims the task before it ran; true when it never will. */
        boolean drain() {
            return state.compareAndSet(NEW, DRAINED);
        }
    }

    /** A future of the view: cancelling it cancels the task's fiber; waiting drives the scheduler. */
    private final class FiberTask<T> extends FutureTask<T> {
        /**
         * The fiber running the task, once executed. Volatile: cancel() writes the task's state and then
         * reads this; bind() writes this and then reads the state, so one of them cancels the fiber.
         */
        private volatile FiberImpl<?> fiber;

        FiberTask(Callable<T> callable) {
            super(callable);
        }

        void bind(FiberImpl<?> f) {
            fiber = f;
            if (isCancelled()) {
                f.requestCancel(f.engine.currentWorker());
            }
        }

        /** Never interrupts (the runner is a worker thread, shared by other fibers): cancels the fiber. */
        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(false);
            FiberImpl<?> f = fiber;
            if (cancelled && f != null) {
                f.requestCancel(f.engine.currentWorker());
            }
            return cancelled;
        }

        @Override
        public T get() throws InterruptedException, ExecutionException {
            FiberImpl<?> f = fiber;
            if (!isDone() && f != null) {
                waitOn(f.outcome());
            }
            return super.get();
        }

        @Override
        public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
            FiberImpl<?> f = fiber;
            if (!isDone() && f != null) {
                Duration limit = Duration.ofNanos(Math.max(0, unit.toNanos(timeout)));
                if (waitOn(Job.race(f.outcome(), Job.sleep(limit))) != null) {
                    return super.get(0, TimeUnit.NANOSECONDS); // done, or TimeoutException
                }
            }
            return super.get(timeout, unit);
        }

        /** A job that waits for the task's fiber to end and gives the task's value, or fails as it did. */
        Job<T> result() {
            FiberImpl<?> f = fiber;
            return f.outcome().then(Job.defer(() -> switch (state()) {
                case SUCCESS -> Job.result(resultNow());
                case FAILED -> Job.failure(exceptionNow());
                default -> Job.failure(new CancellationException("the task was cancelled"));
            }));
        }
    }
}
