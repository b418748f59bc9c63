package dev.spindle.internal.run;

import dev.spindle.internal.diag.Log;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The runtime behind a {@code Scheduler}: workers, the shared global queue, the idle protocol, timers,
 * the clock and the count of live fibers.
 *
 * <pre>
 * Implementation overview
 * =======================
 * Modes
 *   multi-threaded   n workers, each driven by its own {@link WorkerThread}.
 *   single-threaded  one worker and no thread of its own: a thread that calls run() (or close()) drives
 *                    it while it waits (marl's bind mode); work submitted meanwhile waits in the global
 *                    queue until some thread drives the worker.
 *
 * Global queue
 *   FIFO of work linked through Work.next, guarded by a spin lock held for a few instructions. It
 *   receives work from foreign threads, shared surplus, fired timers and automatic yields. {@code head}
 *   is also read without the lock (volatile) as the "is there work" test of the idle protocol.
 *
 * Live fibers and close()
 *   Workers count fibers started and finished in owner-only counters (no shared atomic on the spawn path);
 *   foreign threads count in {@code externalStarted}. liveFibers() reads every finished counter before any
 *   started counter: a fiber counted finished was counted started earlier, so the difference never
 *   under-counts; zero means that at the first read nothing was live and nothing has started since.
 *
 * Lifecycle (runState)
 *   OPEN     --close(), shutdown()-->               CLOSING   new roots from outside are refused; live
 *                                                             fibers go on and may start children
 *   CLOSING  --no live fiber, global queue empty--> CLOSED    terminate(): timer thread stopped, worker
 *                                                             threads told to stop (they drain first)
 *   The second step is taken by whoever next sees the engine quiescent: close() after its wait, a worker
 *   that runs out of work (terminateIfQuiescent, also when a drive ends), or the simulator at the end of
 *   a drive. close() also joins the worker threads; shutdown() returns at once.
 *   INV: once CLOSING with no live fiber, none can start again (roots are refused, children need a live
 *   parent), so a quiescence seen then is final.
 *
 * Diagnostics
 *   A scheduler's diagnostics (internal.diag) install {@link EngineHooks} once after construction: told of
 *   every uncaught failure and of termination. Names from job.named(..) live in a weak side table here
 *   ({@link FiberNames}); only named fibers pay for it.
 * </pre>
 */
public final class Engine extends EngineHotFieldsPadded {
    private static final int OPEN = 0;
    private static final int CLOSING = 1;
    private static final int CLOSED = 2;

    /** The workers; fixed at construction. */
    final Worker[] workers;
    /** Whether workers have dedicated threads (false: single-threaded, driven by callers). */
    private final boolean threaded;
    private final WorkerThread[] threads;
    private final Consumer<Throwable> uncaughtHandler;
    private final TimerQueue timers;
    private final String name;
    /** The platform: clock, waiting, and the runtime's choices ({@link SystemDriver} or the simulator's). */
    private final Driver driver;
    /** The driver's {@link Driver#runtimeChoosesOrder()}, read on the spawn path. */
    private final boolean runtimeChoosesOrder;
    /** Observer of fiber lifecycles, or null (production). */
    private final FiberObserver observer;

    // the global queue (lock, head, tail) and idleCount: in EngineHotFields, on cache lines of their own
    /** OPEN, CLOSING, CLOSED. */
    private volatile int runState;
    /** Fibers started from foreign threads. */
    private final AtomicLong externalStarted = new AtomicLong();
    /** Live fibers without a parent (run, submit, execute, startDetached, forget): for shutdownNow. */
    private final java.util.Set<FiberBase<?>> roots = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The network poller, installed on first use by dev.spindle.internal.net; null until then. */
    private volatile Poller poller;
    /** Lock word serialising the drivers of a single-threaded engine. */
    private volatile int driving;
    /** Names given with {@code job.named(..)}; entries made only by named fibers, dropped with them. */
    private final FiberNames names = new FiberNames();
    /** Failures handed to the uncaught handler. */
    private final AtomicLong uncaught = new AtomicLong();
    /** The scheduler's diagnostics (watchdog, MBean, events), or null; set once after construction. */
    private volatile EngineHooks hooks;

    /**
     * Creates an engine with {@code workerCount} workers; {@code threaded} gives each its own thread,
     * otherwise {@code workerCount} must be 1 and callers drive it.
     */
    public Engine(String name, int workerCount, boolean threaded, Consumer<Throwable> uncaughtHandler) {
        this(name, workerCount, threaded, uncaughtHandler, SystemDriver.INSTANCE, null);
    }

    /**
     * Creates an engine run by {@code driver} (the simulator's): one worker, no threads of its own;
     * {@code observer} sees every fiber.
     */
    public Engine(String name, Consumer<Throwable> uncaughtHandler, Driver driver, FiberObserver observer) {
        this(name, 1, false, uncaughtHandler, java.util.Objects.requireNonNull(driver, "driver"), observer);
    }

    private Engine(String name, int workerCount, boolean threaded, Consumer<Throwable> uncaughtHandler,
                   Driver driver, FiberObserver observer) {
        this.driver = driver;
        this.runtimeChoosesOrder = driver.runtimeChoosesOrder();
        this.observer = observer;
        if (workerCount < 1) {
            throw new IllegalArgumentException("worker count must be at least 1, was " + workerCount);
        }
        if (!threaded && workerCount != 1) {
            throw new IllegalArgumentException("a single-threaded engine has exactly one worker");
        }
        this.name = name;
        this.threaded = threaded;
        this.uncaughtHandler = uncaughtHandler;
        this.workers = new Worker[workerCount];
        for (int i = 0; i < workerCount; i++) {
            workers[i] = new Worker(this, i);
        }
        this.timers = new TimerQueue(this);
        if (threaded) {
            threads = new WorkerThread[workerCount];
            for (int i = 0; i < workerCount; i++) {
                threads[i] = new WorkerThread(name + "-worker-" + i, workers[i]);
            }
            for (WorkerThread t : threads) {
                t.start();
            }
        } else {
            threads = null;
        }
    }

    // ---------------------------------------------------------------- network poller

    /** The engine's network poller, or null when no socket has been registered with it (volatile read). */
    public Poller poller() {
        return poller;
    }

    /**
     * The engine's network poller, created by {@code factory} on first use; created and published at most
     * once (under this engine's monitor), so a worker sees either null or the one poller.
     */
    public Poller poller(java.util.function.Function<Engine, Poller> factory) {
        Poller p = poller;
        if (p == null) {
            synchronized (this) {
                p = poller;
                if (p == null) {
                    p = factory.apply(this);
                    poller = p;
                }
            }
        }
        return p;
    }

    private void closePoller() {
        Poller p = poller;
        if (p != null) {
            p.close();
        }
    }

    // ---------------------------------------------------------------- clock and timers

    /** The engine's clock in nanoseconds: the only time source the runtime uses. */
    public long nanoTime() {
        return driver.nanoTime();
    }

    /** The driver this engine runs on: its clock, and its answers to what the runtime may do. */
    public Driver driver() {
        return driver;
    }

    /**
     * Whether the runtime decides what runs next ({@link Driver#runtimeChoosesOrder()}): a final field, for
     * the spawn path and the worker loop.
     */
    public boolean runtimeChoosesOrder() {
        return runtimeChoosesOrder;
    }

    /** The fiber observer, or null. */
    public FiberObserver observer() {
        return observer;
    }

    /** The single worker of a single-threaded engine (a simulated one too). */
    public Worker soleWorker() {
        if (workers.length != 1) {
            throw new IllegalStateException("engine " + name + " has " + workers.length + " workers");
        }
        return workers[0];
    }

    /** The engine's timer queue. */
    public TimerQueue timers() {
        return timers;
    }

    // ---------------------------------------------------------------- submission

    /** The worker the calling thread is driving for this engine, or null for a foreign thread. */
    public Worker currentWorker() {
        Thread t = Thread.currentThread();
        if (t instanceof WorkerThread wt) {
            return wt.worker.engine == this ? wt.worker : null;
        }
        if (!threaded && workers[0].thread == t) {
            return workers[0];
        }
        return null;
    }

    /** Schedules {@code wk} from any thread: on the caller's worker when it drives one, else globally. */
    public void enqueue(Work wk) {
        Worker w = currentWorker();
        if (w != null) {
            w.push(wk);
        } else {
            pushGlobal(wk);
        }
    }

    /** Appends {@code wk} to the global queue and wakes an idle worker. */
    public void pushGlobal(Work wk) {
        wk.next = null;
        pushGlobalChain(wk, wk);
    }

    /** Appends the chain {@code first..last} (linked through next) to the global queue and wakes a worker. */
    public void pushGlobalChain(Work first, Work last) {
        appendGlobalChain(first, last);
        signalWork();
    }

    /** Appends the chain {@code first..last} to the global queue without waking anyone. */
    public void appendGlobalChain(Work first, Work last) {
        last.next = null;
        lock();
        if (tail == null) {
            head = first;
        } else {
            tail.next = first;
        }
        tail = last;
        unlock();
    }

    /** Whether the global queue holds work (volatile read; part of the idle protocol). */
    boolean hasGlobalWork() {
        return head != null;
    }

    /**
     * Takes the oldest item of the global queue, or null, and wakes another idle worker when more is left.
     * One item, never a batch: items taken into a worker's stack would wait there behind whatever that
     * worker runs first, however long it runs, while the woken workers find the queue empty.
     */
    Work pollGlobal() {
        if (head == null) {
            return null;
        }
        lock();
        Work first = head;
        if (first == null) {
            unlock();
            return null;
        }
        Work rest = first.next;
        head = rest;
        if (rest == null) {
            tail = null;
        }
        unlock();
        first.next = null;
        if (rest != null) {
            signalWork(); // more left: let another idle worker help
        }
        return first;
    }

    /** Items a woken worker runs, at most, before going idle again for its wake-up to count as wasted. */
    static final int WASTED_WAKE_ITEMS = 3;
    /** The share gap after a first wasted wake-up ({@link #adaptShareGap}). */
    static final int MIN_SHARE_GAP = 64;
    /** The largest share gap, in items: a few milliseconds of short items. */
    static final int MAX_SHARE_GAP = 1 << 16;

    int idleCount() {
        return idleCount;
    }

    /**
     * A worker woken by a signal has gone idle again after running {@code items} items. With at most
     * {@link #WASTED_WAKE_ITEMS}, what it was woken for (most often a share) ended at once, as a resumed
     * producer of a fan-in does, and cost less than the share's walk, the wake-up and the park: the share
     * gap, the items a worker runs between two shares from a deep stack ({@code Worker.DEEP_SHARE}), doubles
     * from {@link #MIN_SHARE_GAP} up to {@link #MAX_SHARE_GAP}. A woken worker that ran more clears it.
     * Shares from shallow stacks, as in fork/join trees, are never spaced out: there most wake-ups are
     * wasted too, yet the few that are not carry whole subtrees.
     */
    void adaptShareGap(int items) {
        shareGap = items > WASTED_WAKE_ITEMS ? 0
                : Math.min(Math.max(2 * shareGap, MIN_SHARE_GAP), MAX_SHARE_GAP);
    }

    /** Items a worker runs between two shares from a deep stack (see {@link #adaptShareGap}). */
    int shareGap() {
        return shareGap;
    }

    /** Whether some worker is not parked (racy; for the watchdog's probe). */
    public boolean hasBusyWorker() {
        return idleCount < workers.length;
    }

    void addIdle(int delta) {
        IDLE_COUNT.getAndAdd(this, delta);
    }

    /** Wakes one parked worker, if any. */
    void signalWork() {
        if (idleCount > 0) {
            for (Worker w : workers) {
                if (w.signalIfParked()) {
                    return;
                }
            }
        }
    }

    // ---------------------------------------------------------------- driving from foreign threads

    /** Whether callers must drive the worker themselves (single-threaded mode). */
    public boolean isSingleThreaded() {
        return !threaded;
    }

    /**
     * Blocks the calling thread until {@code stop} holds. A thread that already drives a worker of this
     * engine keeps running work meanwhile (marl's behaviour, so a nested wait cannot deadlock the worker);
     * in single-threaded mode the caller drives the worker; otherwise it parks. Whoever makes {@code stop}
     * true must call {@link #wake(Thread)} on the waiting thread.
     */
    public void await(StopCondition stop) {
        driver.await(this, stop);
    }

    /** {@link #await} on real threads: {@link SystemDriver}'s way of waiting. */
    void awaitOnThreads(StopCondition stop) {
        Worker w = currentWorker();
        if (w != null) {
            w.runUntil(stop);
            return;
        }
        if (!threaded) {
            driveUntil(stop);
            return;
        }
        while (!stop.isStopped()) {
            LockSupport.park(this);
        }
    }

    private void driveUntil(StopCondition stop) {
        Worker w = workers[0];
        while (!stop.isStopped()) {
            if (DRIVING.compareAndSet(this, 0, 1)) {
                try {
                    // stop when our condition holds; hand over if another thread is waiting to drive
                    w.runUntil(stop);
                } finally {
                    DRIVING.setVolatile(this, 0);
                }
                return;
            }
            LockSupport.parkNanos(this, 100_000); // another thread drives; our work runs there
        }
    }

    /** Wakes {@code waiter}, blocked in {@link #await}, and the worker it may be driving. */
    public void wake(Thread waiter) {
        LockSupport.unpark(waiter);
    }

    // ---------------------------------------------------------------- fibers and failures

    /** Fibers counted by {@link #externalFiberStarted()}, less those taken back. */
    public long externalStartedCount() {
        return externalStarted.get();
    }

    /** Counts a fiber started from a thread that drives no worker of this engine. */
    public void externalFiberStarted() {
        externalStarted.incrementAndGet();
    }

    /**
     * Counts a fiber of this engine started by code running on {@code w}, a worker of any engine (a fiber
     * woken by another engine's fiber continues on that engine's worker), or null on a foreign thread.
     */
    public void fiberStarted(Worker w) {
        if (w != null && w.engine == this) {
            w.fiberStarted();
        } else {
            externalFiberStarted();
        }
    }

    /** Counts a fiber of this engine that finished on {@code w}, a worker of any engine. */
    public void fiberFinished(Worker w) {
        if (w.engine == this) {
            w.fiberFinished();
        } else {
            externalFiberRefused(); // the same count taken back, and the same wake-up of a parked close()
        }
    }

    /**
     * Takes back a count of {@link #externalFiberStarted()}: a fiber that was refused and never ran, or one
     * that finished on another engine's worker.
     */
    public void externalFiberRefused() {
        externalStarted.decrementAndGet();
        // A close() driving a single-threaded engine may have seen this count, found the engine busy and
        // parked: it must look again (no work will come to wake it).
        signalWork();
    }

    /** Registers a live fiber without a parent. */
    public void addRoot(FiberBase<?> fiber) {
        roots.add(fiber);
    }

    /** Unregisters a finished root. */
    public void removeRoot(FiberBase<?> fiber) {
        roots.remove(fiber);
    }

    /** A snapshot of the live roots. */
    public java.util.List<FiberBase<?>> liveRoots() {
        return java.util.List.copyOf(roots);
    }

    /** Fibers started and not yet finished (never under-counts; see the overview). */
    public long liveFibers() {
        long finished = 0;
        for (Worker w : workers) {
            finished += w.fibersFinishedHere();
        }
        long started = externalStarted.get();
        for (Worker w : workers) {
            started += w.fibersStartedHere();
        }
        return started - finished;
    }

    /**
     * Hands a failure nobody observes to the uncaught handler (null at construction: the runtime's logger);
     * a failing handler is logged.
     */
    public void reportUncaught(Throwable e) {
        reportUncaught(null, e);
    }

    /** Like {@link #reportUncaught(Throwable)}, naming the fiber that failed ({@code fiber} may be null). */
    public void reportUncaught(FiberBase<?> fiber, Throwable e) {
        uncaught.incrementAndGet();
        EngineHooks h = hooks;
        if (h != null) {
            h.uncaught(fiber, e);
        }
        if (uncaughtHandler == null) { // the default: the runtime's logger, naming the fiber
            Log.uncaught(name, fiber == null ? null : fiber.toString(), e);
            return;
        }
        try {
            uncaughtHandler.accept(e);
        } catch (Throwable handlerFailure) {
            handlerFailure.addSuppressed(e);
            Log.warn("the uncaught handler of scheduler \"" + name + "\" failed", handlerFailure);
        }
    }

    // ---------------------------------------------------------------- lifecycle

    /** Whether new work from outside is still accepted. */
    public boolean isOpen() {
        return runState == OPEN;
    }

    /** Whether {@link #close()} has finished. */
    public boolean isTerminated() {
        return runState == CLOSED;
    }

    /** Fails with a clear message when the engine no longer accepts work. */
    public void checkOpen() {
        if (runState != OPEN) {
            throw new IllegalStateException("scheduler " + name + " is closed");
        }
    }

    /**
     * Stops accepting work, waits until every fiber has finished (driving the worker in single-threaded
     * mode), then stops the workers and the timer thread and waits for the worker threads to end.
     * Idempotent; concurrent callers all wait. Must not be called from this engine's own work (it would
     * wait for itself): see {@link #isOwnWork()}.
     */
    public void close() {
        RUN_STATE.compareAndSet(this, OPEN, CLOSING);
        driver.awaitQuiescent(this, () -> liveFibers() == 0 && head == null);
        terminate();
        if (threads != null) {
            for (WorkerThread t : threads) {
                joinUninterruptibly(t);
            }
        }
    }

    /** {@link #close()}'s wait on real threads: {@link SystemDriver}'s way of waiting for quiescence. */
    void awaitQuiescentOnThreads(StopCondition quiescent) {
        if (!threaded) {
            while (!driveWhileBusy(quiescent)) {
                // until the driver saw no live fiber and no callback of a finished one left on its stack
            }
        } else {
            while (!quiescent.isStopped()) {
                LockSupport.parkNanos(this, 1_000_000);
            }
        }
    }

    /**
     * Stops accepting work from outside and returns at once; the engine terminates (workers and timer
     * thread stopped) when the last fiber has finished. On a single-threaded engine the fibers still live
     * run only while some thread drives it ({@code run} or {@code close}).
     */
    public void shutdown() {
        RUN_STATE.compareAndSet(this, OPEN, CLOSING);
        Worker w = currentWorker();
        if (w != null) {
            terminateIfQuiescent(w);
        } else if (threaded) {
            if (liveFibers() == 0 && head == null) {
                terminate();
            }
        } else if (DRIVING.compareAndSet(this, 0, 1)) { // the driver's lock: its stack may be read here
            try {
                terminateIfQuiescent(workers[0]);
            } finally {
                DRIVING.setVolatile(this, 0);
            }
        }
        signalWork(); // an idle worker looks again and terminates the engine if nothing is left
    }

    /**
     * Terminates a closing engine that has nothing left to run: called by a worker when it runs out of
     * work ({@code caller}'s own stack must then be empty on a single-threaded engine, whose leftover
     * callbacks only its driver runs; worker threads drain theirs before they stop).
     */
    void terminateIfQuiescent(Worker caller) {
        if (isClosingAndQuiescent() && (threaded || !caller.hasLocalWork())) {
            terminate();
        }
    }

    /**
     * Whether the engine is closing with nothing live and nothing queued. A worker about to park asks this
     * after announcing itself idle (a full fence), so that a shutdown() whose own look raced the last
     * fiber's end, and found it still live, is seen by the worker instead.
     */
    boolean isClosingAndQuiescent() {
        return runState == CLOSING && liveFibers() == 0 && head == null;
    }

    /** CLOSING to CLOSED, once: stops the timer thread and tells the worker threads to stop. */
    private void terminate() {
        if (RUN_STATE.compareAndSet(this, CLOSING, CLOSED)) {
            EngineHooks h = hooks;
            if (h != null) {
                h.terminated();
            }
            timers.stop();
            closePoller();
            if (threads != null) {
                for (WorkerThread t : threads) {
                    t.requestStop();
                }
            }
        }
    }

    /**
     * Whether the calling thread is running this engine's work (a worker thread of it, or the thread driving
     * it): then a wait for all of its fibers would wait for the caller itself.
     */
    public boolean isOwnWork() {
        return currentWorker() != null;
    }

    /**
     * Drives the single worker for about a millisecond unless another thread drives it; true when, while
     * driving, it saw {@code quiescent} hold with the worker's stack empty. The stack can still hold
     * callbacks of fibers that already finished (futures, blocked callers of run): they must run too.
     */
    private boolean driveWhileBusy(StopCondition quiescent) {
        Worker w = workers[0];
        StopCondition drained = () -> quiescent.isStopped() && !w.hasLocalWork(); // read by the driver only
        // Poll the condition while driving: a parked driver is woken by new work, and a short timed
        // park covers the case where the last fiber finishes without producing any.
        StopCondition stopOrTick = new StopCondition() {
            private final long until = System.nanoTime() + 1_000_000;

            @Override
            public boolean isStopped() {
                return drained.isStopped() || System.nanoTime() - until > 0;
            }
        };
        boolean done = false;
        if (w.thread == Thread.currentThread()) {
            w.runUntil(stopOrTick);
            done = drained.isStopped();
        } else if (DRIVING.compareAndSet(this, 0, 1)) {
            try {
                w.runUntil(stopOrTick);
                done = drained.isStopped();
            } finally {
                DRIVING.setVolatile(this, 0);
            }
        }
        if (!done && !hasGlobalWork()) {
            LockSupport.parkNanos(this, 200_000);
        }
        return done;
    }

    private static void joinUninterruptibly(Thread t) {
        if (t == Thread.currentThread()) {
            return;
        }
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The worker a detached direct body started on {@code starter} starts on ({@code startDetached},
     * {@code forget}): the workers in turn, counted per starting worker so that no shared line is written. A
     * direct body stays on the worker that first runs it, so bodies started inline by one loop (a server's
     * acceptor starting a handler per connection) would all share the loop's worker for good.
     */
    public Worker placeDetachedBody(Worker starter) {
        int i = starter.nextPlacement;
        starter.nextPlacement = i + 1 == workers.length ? 0 : i + 1;
        return workers[i];
    }

    /** Number of workers. */
    public int workerCount() {
        return workers.length;
    }

    /** Worker {@code i}, for diagnostics. */
    public Worker worker(int i) {
        return workers[i];
    }

    /** The engine's (the scheduler's) name. */
    public String name() {
        return name;
    }

    /** Installs the diagnostics hooks; once, right after construction. */
    public void setHooks(EngineHooks h) {
        this.hooks = h;
    }

    /** Names {@code fiber} (job.named): the name shows in its toString, in dumps and in reports. */
    public void nameFiber(FiberBase<?> fiber, String fiberName) {
        names.put(fiber, fiberName);
    }

    /** The name given to {@code fiber}, or null. */
    public String fiberName(FiberBase<?> fiber) {
        return names.get(fiber);
    }

    /** Failures handed to the uncaught handler so far. */
    public long uncaughtCount() {
        return uncaught.get();
    }

    /** Items in the global queue, counted under its lock (at most {@code limit}); for metrics. */
    public long globalQueueLength(int limit) {
        lock();
        try {
            long n = 0;
            for (Work w = head; w != null && n < limit; w = w.next) {
                n++;
            }
            return n;
        } finally {
            unlock();
        }
    }

    /**
     * Whether nothing is queued anywhere and no timer is pending: for quiescence checks in tests. Reliable
     * only when no fiber is running.
     */
    public boolean isQuiescent() {
        return head == null && timers.size() == 0 && liveFibers() == 0;
    }

    @Override
    public String toString() {
        return name;
    }

    /** Takes this object's spin lock (the handle used in place, not passed: see {@link SpinLock}). */
    private void lock() {
        if (!LOCK.compareAndSet(this, 0, 1)) {
            SpinLock.lockSlow(LOCK, this);
        }
    }

    /** Releases this object's spin lock. */
    private void unlock() {
        LOCK.setRelease(this, 0);
    }

    private static final VarHandle LOCK;
    private static final VarHandle IDLE_COUNT;
    private static final VarHandle RUN_STATE;
    private static final VarHandle DRIVING;

    static {
        MethodHandles.Lookup l = MethodHandles.lookup();
        LOCK = SpinLock.handle(l, EngineHotFields.class, "lock");
        IDLE_COUNT = SpinLock.handle(l, EngineHotFields.class, "idleCount");
        RUN_STATE = SpinLock.handle(l, Engine.class, "runState");
        DRIVING = SpinLock.handle(l, Engine.class, "driving");
        // Loads FiberObserver: with no observer installed nothing else would, and C2 does not inline a
        // method whose signature names an unloaded class, so every block paid a call to observer().
        FiberObserver.class.getName();
    }
}
