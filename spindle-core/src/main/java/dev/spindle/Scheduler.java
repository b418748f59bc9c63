package dev.spindle;

import dev.spindle.internal.diag.Diagnostics;
import dev.spindle.internal.run.BoundThread;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.StopCondition;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs jobs as fibers on a few worker threads.
 *
 * <pre>{@code
 * try (Scheduler scheduler = Scheduler.create()) {          // one worker per processor
 *     int sum = scheduler.run(Job.of(() -> 1).flatMap(x -> Job.of(() -> x + 1)));
 * }
 * }</pre>
 *
 * <p>Three kinds: {@link #create()} / {@link #create(int)} (work-sharing worker threads),
 * {@link #singleThreaded()} (no threads of its own: the thread that calls {@link #run} runs queued work
 * while it waits, and so does a thread {@link #bind() bound} to it while it blocks on any Spindle
 * primitive, marl's "bind"), and the deterministic simulator in {@code spindle-test}.
 *
 * <p>{@link #run} blocks the calling thread. Called from inside a job running on the same scheduler, it
 * keeps the worker running other work while it waits (so it cannot deadlock the worker), but it holds
 * that worker's thread: prefer {@link Job#start()} and {@link Fiber#join()} inside jobs.
 *
 * <p>{@link #close()} waits until every fiber started on the scheduler has finished; a fiber blocked
 * forever makes it wait forever. {@link #shutdownNow()} cancels what is still running first. Inside one of
 * the scheduler's own fibers, where {@code close()} would wait for itself and so throws, use
 * {@link #shutdown()} (stop accepting work, let the fibers finish) or {@link #shutdownNow()}.
 */
public final class Scheduler implements Executor, AutoCloseable {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Duration DEFAULT_STARVATION_THRESHOLD = Duration.ofMillis(100);

    final Engine engine;

    /** A scheduler over a driven (simulated) engine: no MBean, no watchdog, no events. */
    Scheduler(Engine engine) {
        this.engine = engine;
    }

    /** A scheduler over a real-time engine, with its MBean, events and (threshold > 0) watchdog. */
    Scheduler(Engine engine, long starvationNanos) {
        this.engine = engine;
        Diagnostics.start(engine, starvationNanos, new Diagnostics.Source() {
            @Override
            public FiberDump dump() {
                return Scheduler.this.dump();
            }

            @Override
            public SchedulerMetrics metrics() {
                return Scheduler.this.metrics();
            }
        });
    }

    /** {@return a scheduler with one worker thread per available processor} */
    public static Scheduler create() {
        return builder().build();
    }

    /**
     * {@return a scheduler with {@code workers} worker threads}
     *
     * @param workers the number of worker threads
     * @throws IllegalArgumentException if {@code workers < 1}
     */
    public static Scheduler create(int workers) {
        return builder().workers(workers).build();
    }

    /**
     * {@return a scheduler without threads of its own: a thread calling {@link #run} (or {@link #close}) runs
     * queued work while it waits} Work submitted otherwise waits until some thread does.
     */
    public static Scheduler singleThreaded() {
        return builder().singleThreaded().build();
    }

    /** {@return a builder for schedulers with a name, a worker count or an uncaught-failure handler} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs {@code job} as a new fiber and blocks until it ends: returns its value, rethrows its failure
     * (unchecked as is, checked wrapped in {@link java.util.concurrent.CompletionException}), or throws
     * {@link CancellationException} if it was cancelled.
     *
     * @param <A> the type of the job's value
     * @param job the job to run
     * @return the job's value
     * @throws IllegalStateException if the scheduler is closed
     */
    public <A> A run(Job<A> job) {
        return runOutcome(job).getOrThrow();
    }

    /**
     * Runs {@code job} as a new fiber, blocks until it ends and gives its {@link Outcome}.
     *
     * @param <A> the type of the job's value
     * @param job the job to run
     * @return how the fiber ended: its value, its failure or its cancellation
     */
    public <A> Outcome<A> runOutcome(Job<A> job) {
        FiberImpl<A> fiber = startRoot(job, false);
        BlockingJoiner<A> waiter = new BlockingJoiner<>();
        if (fiber.tryAddJoiner(waiter)) {
            engine.await(waiter);
        }
        return fiber.outcomeNow();
    }

    /**
     * Starts {@code job} as a new fiber and returns a future of its value. Cancelling the future
     * ({@code cancel(true)} or {@code cancel(false)}) requests cancellation of the fiber; the future
     * completes at once, before the fiber's finalizers have run (use {@link Fiber#cancel()} inside jobs to
     * wait for them). On a {@link #singleThreaded()} scheduler the fiber runs only while some thread drives
     * the scheduler ({@link #run} or {@link #close}): joining the future alone would wait forever.
     *
     * @param <A> the type of the job's value
     * @param job the job to start
     * @return a future of the fiber's value
     */
    public <A> CompletableFuture<A> submit(Job<A> job) {
        return FiberFuture.of(startRoot(job, false));
    }

    /**
     * Runs {@code task} as a fire-and-forget fiber; what it throws goes to the uncaught handler. Like marl's
     * tasks, the task is a {@link Direct direct body}: it may wait with {@link Job#await()} and with the
     * blocking forms of the {@code dev.spindle.sync} primitives, which suspend only its fiber. (In the
     * deterministic simulator on the virtual-thread backend, where direct bodies cannot run, the task runs as
     * {@link Job#run} and cannot wait.)
     *
     * <p>Cost: on the continuation backend a task costs about a third more than a stackless fiber (a
     * continuation is created and mounted); on the virtual-thread backend each task gets a virtual thread,
     * about twenty times the cost. Where tasks never wait, {@code scheduler.submit(Job.run(task))} or
     * {@code Job.run(task).forget()} inside a job are the stackless forms.
     */
    @Override
    public void execute(Runnable task) {
        startRoot(taskJob(Objects.requireNonNull(task, "task")), true);
    }

    /** The job that runs {@code task} as {@link #execute} does: a direct body where one can run. */
    Job<Void> taskJob(Runnable task) {
        return Direct.canRunOn(engine) ? Direct.job(() -> {
            task.run();
            return null;
        }) : Job.run(task);
    }

    /** {@return the scheduler's current time} */
    public Instant now() {
        return Clock.instant(engine);
    }

    /**
     * Stops accepting new jobs and waits until every fiber started on this scheduler has finished, then
     * stops the workers. A single-threaded scheduler runs what is still pending on the calling thread.
     * Idempotent. A fiber blocked forever makes this wait forever (use {@link #shutdownNow()}).
     *
     * @throws IllegalStateException when called from one of this scheduler's own fibers, which the wait would
     *     include: use {@link #shutdown()} or {@link #shutdownNow()} there
     */
    @Override
    public void close() {
        if (calledFromOwnFiber()) {
            throw new IllegalStateException("close() called from a fiber of scheduler " + engine
                    + " would wait for that fiber to finish, forever: use shutdown() to let the fibers finish"
                    + " or shutdownNow() to cancel them, which both return at once");
        }
        engine.close();
    }

    /**
     * Stops accepting new jobs from outside and returns at once: the fibers still running go on (and may
     * start children), and the scheduler terminates, its workers stopped, when the last one has finished
     * ({@link #isTerminated()}). Callable from anywhere, one of its own fibers included; {@link #close()}
     * from outside then waits for the end. Idempotent. On a {@link #singleThreaded()} scheduler the fibers
     * left run only while some thread drives it ({@link #close()} does).
     */
    public void shutdown() {
        engine.shutdown();
    }

    /**
     * Cancels every fiber still running (and its descendants), then stops the scheduler: from outside it
     * {@link #close()}s, waiting for the cancelled fibers' finalizers; from one of its own fibers, which is
     * cancelled too, it {@link #shutdown()}s and returns at once (the calling fiber sees its cancellation at
     * its next bind or wait).
     */
    public void shutdownNow() {
        Worker w = engine.currentWorker();
        for (FiberBase<?> f : engine.liveRoots()) {
            ((FiberImpl<?>) f).requestCancel(w);
        }
        if (calledFromOwnFiber()) {
            shutdown();
        } else {
            close();
        }
    }

    /**
     * {@return whether {@link #close()}, {@link #shutdown()} or {@link #shutdownNow()} has begun: new jobs
     * are refused}
     */
    public boolean isClosed() {
        return !engine.isOpen();
    }

    /** {@return whether the scheduler has stopped: closed, every fiber finished, its workers told to stop} */
    public boolean isTerminated() {
        return engine.isTerminated();
    }

    /** Whether the calling code runs in one of this scheduler's fibers (stackless, or a direct body). */
    private boolean calledFromOwnFiber() {
        if (engine.isOwnWork()) {
            return true;
        }
        DirectBody<?> body = DirectBody.current(); // a direct body on the virtual-thread backend
        return body != null && body.engine() == engine;
    }

    /**
     * {@return the scheduler's name: the builder's {@link Builder#name}, or {@code spindle-<n>}, unique in
     * the process}
     */
    public String name() {
        return engine.name();
    }

    /**
     * Every live fiber now, as a tree: id, name, state, what it is blocked on, its parent and children, the
     * worker running it. Taken without stopping the fibers, at a cost proportional to the live fibers and
     * nothing while nobody asks: the walk follows the links the runtime keeps anyway (roots, the
     * cancellation tree). Also available from outside the process through the MBean
     * ({@link SchedulerMXBean#dumpFibers()}).
     *
     * @return the live fibers, as a tree
     */
    public FiberDump dump() {
        return FiberDumper.dump(engine);
    }

    /** {@return the scheduler's counters now (also the attributes of its MBean, {@link SchedulerMXBean})} */
    public SchedulerMetrics metrics() {
        return FiberDumper.metrics(engine);
    }

    /** {@return the number of worker threads (1 for a single-threaded scheduler)} */
    public int workerCount() {
        return engine.workerCount();
    }

    @Override
    public String toString() {
        return "Scheduler[" + engine + ", " + engine.workerCount() + " workers]";
    }

    /**
     * {@return a new {@link ExecutorService} view of this scheduler, for libraries that take one: its tasks
     * run as fibers here, as {@link #execute} runs them (direct bodies), with the JDK's documented semantics
     * for the view itself} {@code shutdown()} stops the view (it rejects new tasks; {@code awaitTermination}
     * waits for the view's own tasks) and {@code shutdownNow()} also cancels the view's running tasks' fibers
     * and returns the tasks that had not started; the scheduler stays open, owned by whoever created it. A
     * task the scheduler refuses (it is closed) is rejected with
     * {@link java.util.concurrent.RejectedExecutionException}. Cancelling a future of the view cancels the
     * task's fiber (a task is never interrupted: its fiber sees the cancellation at its next wait). The
     * blocking methods ({@code invokeAll}, {@code invokeAny}, {@code awaitTermination}, the futures'
     * {@code get}) drive a single-threaded scheduler or a simulation while they wait, suspend only the fiber
     * in a direct body of this scheduler, and block the calling thread elsewhere. Each call gives a new view
     * with tasks of its own.
     */
    public ExecutorService asExecutorService() {
        return new SchedulerExecutorService(this);
    }

    /**
     * Binds the calling thread to this single-threaded scheduler until the returned binding is closed (marl's
     * {@code bind}): while bound, the thread's blocking waits on Spindle primitives (the {@code xBlocking}
     * forms of {@code dev.spindle.sync}: {@code awaitBlocking}, {@code lockBlocking}, ...) run the
     * scheduler's queued work instead of parking, exactly as {@link #run} does, so tasks the thread
     * {@link #execute}d can run and wake it. Unbound, such a wait parks, and on a single-threaded scheduler
     * nothing would ever run the tasks. A bound thread may also use the blocking forms inside a job of this
     * scheduler: the wait goes on running the scheduler's other work (as {@link #run} inside a job does).
     *
     * <pre>{@code
     * Scheduler scheduler = Scheduler.singleThreaded();
     * try (Scheduler.Binding bound = scheduler.bind()) {
     *     WaitGroup wg = new WaitGroup(10);
     *     for (int i = 0; i < 10; i++) {
     *         scheduler.execute(wg::done);
     *     }
     *     wg.awaitBlocking();          // runs the ten tasks on this thread, then returns
     * }
     * scheduler.close();
     * }</pre>
     *
     * <p>Why a handle and not a {@code bind()}/{@code unbind()} pair: the binding is state of one thread that
     * must end on every path, exceptions included, like a lock, and try-with-resources says so; closing the
     * handle ends exactly the binding it stands for, on its own thread, and closing it again does nothing,
     * where a free-standing {@code unbind()} could end a binding someone else made. A thread is bound to one
     * scheduler at a time.
     *
     * @return the binding, to close (on this thread) when the thread no longer waits for the scheduler
     * @throws IllegalStateException if this scheduler is not single-threaded (worker threads run its work, and
     *     the deterministic simulator is driven by its own loop), is closed, the thread is bound already, or
     *     the call comes from inside a job
     */
    public Binding bind() {
        BoundThread.bind(engine);
        return new Binding(Thread.currentThread());
    }

    /** A thread's binding to this scheduler, made by {@link #bind()}; {@link #close()} ends it. */
    public final class Binding implements AutoCloseable {
        private final Thread thread;
        /** Read and written by {@link #thread} only. */
        private boolean closed;

        private Binding(Thread thread) {
            this.thread = thread;
        }

        /**
         * The scheduler the thread is bound to.
         *
         * @return the scheduler whose {@link Scheduler#bind()} made this binding
         */
        public Scheduler scheduler() {
            return Scheduler.this;
        }

        /**
         * The bound thread.
         *
         * @return the thread that called {@link Scheduler#bind()}
         */
        public Thread thread() {
            return thread;
        }

        /**
         * Unbinds the thread: its blocking waits park again. Idempotent.
         *
         * @throws IllegalStateException if called from another thread than the bound one
         */
        @Override
        public void close() {
            if (Thread.currentThread() != thread) {
                throw new IllegalStateException("a binding to " + Scheduler.this + " is closed by its own thread \""
                        + thread.getName() + "\", not by \"" + Thread.currentThread().getName() + "\"");
            }
            if (!closed) {
                closed = true;
                BoundThread.unbind(engine);
            }
        }

        @Override
        public String toString() {
            return "binding of thread \"" + thread.getName() + "\" to " + Scheduler.this
                    + (closed ? " (closed)" : "");
        }
    }

    /** Starts {@code job} as a root fiber; {@code reportsFailure}: its failure goes to the uncaught handler. */
    <A> FiberImpl<A> startRoot(Job<A> job, boolean reportsFailure) {
        Objects.requireNonNull(job, "job");
        // Count the fiber as live before the open check: a close() racing this call then either waits
        // for it or refuses it here (and the count is taken back); it can never stop the workers under it.
        Worker w = engine.currentWorker();
        if (w != null) {
            w.fiberStarted();
        } else {
            engine.externalFiberStarted();
        }
        try {
            engine.checkOpen();
        } catch (IllegalStateException closed) {
            if (w != null) {
                w.fiberFinished();
            } else {
                engine.externalFiberRefused();
            }
            throw closed;
        }
        FiberImpl<A> fiber = new FiberImpl<>(job, engine, null, reportsFailure);
        if (w != null) {
            w.push(fiber);
        } else {
            engine.pushGlobal(fiber);
        }
        return fiber;
    }

    /** Wakes a thread blocked in {@link #runOutcome} when the fiber ends. */
    private final class BlockingJoiner<A> extends Callback<A> implements StopCondition {
        private final Thread waiter = Thread.currentThread();
        private volatile boolean done;

        @Override
        public boolean isStopped() {
            return done;
        }

        @Override
        void onDone(Worker w) {
            done = true;
            engine.wake(waiter);
        }
    }

    /** Configures a {@link Scheduler}. */
    public static final class Builder {
        private int workers = Runtime.getRuntime().availableProcessors();
        private boolean singleThreaded;
        private String name;
        private Consumer<Throwable> uncaughtHandler;
        private Duration starvationThreshold = DEFAULT_STARVATION_THRESHOLD;

        private Builder() {
        }

        /**
         * Sets the number of worker threads (default: available processors).
         *
         * @param count the number of worker threads
         * @return this builder
         */
        public Builder workers(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("worker count must be at least 1, was " + count);
            }
            this.workers = count;
            this.singleThreaded = false;
            return this;
        }

        /**
         * Makes the scheduler single-threaded: no worker threads; callers of run and close drive it (marl's bind mode).
         *
         * @return this builder
         */
        public Builder singleThreaded() {
            this.singleThreaded = true;
            return this;
        }

        /**
         * A name for the scheduler, its threads, its MBean, its events and its reports (default
         * {@code spindle-<n>}, unique in the process).
         *
         * @param name the scheduler's name
         * @return this builder
         */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * The starvation watchdog's threshold (default 100 ms; {@link Duration#ZERO} turns the watchdog off).
         * A worker inside one work item for longer (a job that blocks its thread in {@code Thread.sleep}, I/O
         * or a long computation) is reported once per episode: a WARNING on the {@code dev.spindle}
         * {@link System.Logger} with the worker thread's stack, and a {@code dev.spindle.WorkerStarvation}
         * JFR event. Work falling due that waits longer than the threshold for a worker (timers fire late) is
         * its own warning and a {@code dev.spindle.TimerLateness} event. The watchdog is a daemon thread that
         * wakes every threshold/2; the workers pay three plain stores per item for it.
         *
         * @param threshold how long a worker may stay in one work item before it is reported
         * @return this builder
         * @throws IllegalArgumentException if negative, or positive and under a millisecond
         */
        public Builder starvationThreshold(Duration threshold) {
            Objects.requireNonNull(threshold, "threshold");
            if (threshold.isNegative() || (!threshold.isZero() && threshold.compareTo(Duration.ofMillis(1)) < 0)) {
                throw new IllegalArgumentException(
                        "starvation threshold must be zero (off) or at least 1 ms, was " + threshold);
            }
            this.starvationThreshold = threshold;
            return this;
        }

        /**
         * Receives failures nobody observes (fire-and-forget fibers, failing finalizers of cancelled jobs).
         * The default logs them at ERROR on the {@code dev.spindle} {@link System.Logger}, naming the fiber.
         *
         * @param handler receives every unobserved failure
         * @return this builder
         */
        public Builder uncaughtHandler(Consumer<Throwable> handler) {
            this.uncaughtHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * Creates and starts the scheduler.
         *
         * @return the new scheduler, running
         */
        public Scheduler build() {
            String n = name != null ? name : "spindle-" + SEQUENCE.incrementAndGet();
            return new Scheduler(singleThreaded
                    ? new Engine(n, 1, false, uncaughtHandler)
                    : new Engine(n, workers, true, uncaughtHandler), starvationThreshold.toNanos());
        }
    }
}
