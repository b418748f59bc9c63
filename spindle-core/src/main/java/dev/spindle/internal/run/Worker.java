package dev.spindle.internal.run;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A worker: the local work stack of one driving thread, and the loop that runs it.
 *
 * <pre>
 * Implementation overview
 * =======================
 * Overview
 *   Each worker owns a LIFO stack of {@link Work} items linked through {@code Work.next} (Hopac's
 *   WorkStack). Jobs push to it freely while they run: a resumed continuation is pushed here and so runs
 *   next on the waking worker, which is what makes ping-pong between two fibers cheap. The loop pops an
 *   item, resets the step budget and runs it; an exception that escapes an item is handed to the item's
 *   own handler, so user code never kills a worker.
 *
 * Sharing (not stealing)
 * ======================
 *   Surplus local work reaches other workers by sharing: when the loop pops an item and sees idle workers
 *   ({@code Engine.idleCount > 0}, one volatile read per item), it moves the oldest item of its stack (the
 *   bottom, found by a bounded walk) to the engine's global queue and wakes one, as a thief in a
 *   work-stealing deque takes the oldest task: in a fork/join tree that is the parent with the most work
 *   left. Idle workers take one item at a time from the global queue. Sharing keeps the owner's push and
 *   pop free of any atomic instruction, and the check is a single read when nobody is idle (Hopac does
 *   the same). For a moment after a share the loop's periodic look leaves the global queue alone
 *   ({@link #SHARE_HOLD}), so that the shared item reaches the worker woken for it. Shares from a deep
 *   stack whose items a woken worker finishes at once (a fan-in's resumed producers) are spaced out.
 *
 * Steps, trampolining and fairness
 * ================================
 *   Java has no tail calls, so continuation-passing grows the Java stack. Every bind step spends one unit
 *   of {@code fuel}; when it runs out the job "bounces": it pushes its continuation (or a small restart
 *   item) and returns to the loop, which unwinds the stack. Every {@link #BOUNCES_PER_YIELD}-th bounce goes
 *   to the back of the global queue instead, so a fiber that binds forever lets timers and other fibers
 *   run. Every {@link #GLOBAL_CHECK_INTERVAL} items the loop looks beyond its stack: at the global queue
 *   (taking up to {@link #GLOBAL_TURN} items in a row while more wait) and at its inbox, each first at
 *   alternate looks, so neither a ping-pong pair, a spawner nor a stream of forwarded wake-ups starves
 *   the other; and it runs the item under the top once that item has lain there for a few looks in a
 *   row ({@link StarvationGuard}). A direct body whose awaits complete inline never bounces; it spends a
 *   budget of its own per such await ({@link #spendInlineAwait}) and, once it is spent, yields like a busy
 *   fiber ({@link #yieldBehind}).
 *
 * Worker state (field state; the engine's idleCount counts PARKED workers)
 * ========================================================================
 *
 *            owner: out of work, announceParked()
 *            (state = PARKED, then idleCount++)
 *   ACTIVE ----------------------------------------> PARKED
 *     ^  ^                                            |  |
 *     |  | owner: mayPark() false, or woken by        |  | producer: signalIfParked()
 *     |  | its own poll (CAS PARKED -> ACTIVE,        |  | (CAS PARKED -> SIGNALLED, idleCount--,
 *     |  +--------- then idleCount--) ----------------+  |  unpark the driver, wake its poll)
 *     |                                                  v
 *     +------- owner: back from park (state = ACTIVE, ---- SIGNALLED
 *              wakeups++; the producer already took
 *              it off idleCount)
 *
 *   INV: only the owner (the thread driving this worker) moves the state out of ACTIVE or SIGNALLED;
 *        producers only CAS PARKED -> SIGNALLED. Exactly one of the owner's CAS back to ACTIVE and a
 *        producer's CAS to SIGNALLED wins, and the winner decrements idleCount, so each park is counted
 *        out once.
 *   Fields: state (volatile; owner writes, producers CAS), thread (volatile; written by the driver as a
 *   drive begins and ends, read by producers to unpark), inbox (volatile; CAS push by any thread, swap by
 *   the owner); everything else is the owner's.
 *
 * Parking (no lost wake-ups)
 * ==========================
 *   idle worker:  state = PARKED; idleCount++; re-check global queue and stop condition; park
 *   producer:     publish work in global queue (volatile head); if idleCount > 0: CAS a PARKED worker to
 *                 SIGNALLED, idleCount--, unpark it
 *   Both sides write then read volatile variables (Dekker), so at least one sees the other: either the
 *   worker sees the work on its re-check, or the producer sees the idle count and unparks it.
 *   INV: idleCount == number of workers in state PARKED (between the two steps of either side it may
 *   over-count, which only costs a spurious signal attempt).
 *   The worker's side is announceParked() then mayPark(); spindle-jcstress (ParkWakeDekker) runs it
 *   against a real pushGlobal on real threads, since the Lincheck model check assumes sequential
 *   consistency and cannot see a store-load reordering.
 *
 * Diagnostics
 * ===========
 *   For the starvation watchdog (internal.diag.Watchdog) every item bumps {@code progress} on entry and on
 *   exit (opaque stores: odd while an item runs) and publishes itself as {@code running} in the young
 *   stack object; parks, wake-ups and shares are counted where they happen, off the per-item path. Other
 *   threads read all of these racily, for reports and metrics only.
 * </pre>
 */
public final class Worker extends CacheLinePadding {
    /**
     * Steps a work item may take before it bounces back to the loop. Bounds Java stack depth; a bounce
     * costs too little to measure at any value from 25 up (docs/benchmark-notebook.md, "Fuel and the automatic
     * yield"), so this is chosen for the stack.
     */
    static final int FUEL = SystemProps.intProp("spindle.fuel", 200);
    /**
     * One bounce in this many goes to the back of the global queue (automatic yield): with FUEL, a busy
     * fiber's slice of about 3,200 steps, 10 µs, for an automatic yield costing about 1% of it (measured
     * by FairnessBenchmark; docs/benchmark-notebook.md).
     */
    static final int BOUNCES_PER_YIELD = SystemProps.intProp("spindle.bouncesPerYield", 16);
    /** The loop looks at the global queue once per this many local items (a power of two). */
    static final int GLOBAL_CHECK_INTERVAL = 64;
    /**
     * Items a look takes from the global queue in a row while more wait there: its share of a worker whose
     * stack is full too. One item per look drains a backlog (a burst of due timers) at 1/64 of the local
     * rate, so its lateness grows for as long as a spawner keeps the stack full.
     */
    static final int GLOBAL_TURN = 32;
    /** Spins of the idle loop before a worker parks. */
    static final int IDLE_SPINS = SystemProps.intProp("spindle.idleSpins", 200);
    /**
     * Links a share walks at most to find the oldest items ({@link #shareOldest}): about a microsecond, less
     * than its wake-up, and enough to reach the oldest of the thousand producers fan-in keeps on the stack.
     */
    static final int SHARE_WALK = 1024;
    /**
     * Items run after a share before the periodic look takes from the global queue again, leaving the shared
     * item to the worker just woken (tens of µs to get going); other global work waits at most about 10 µs.
     */
    static final int SHARE_HOLD = 256;
    /** Links a share walks for its stack to count as deep ({@link Engine#adaptShareGap}). */
    static final int DEEP_SHARE = 64;
    /** An inbox chain longer than this runs oldest first, a shorter one newest first ({@link #pollInbox}). */
    static final int INBOX_BACKLOG = 16;
    /**
     * A busy worker looks at the engine's {@link Poller}, when it has one, once per this many items (about a
     * millisecond of short items). Readiness goes first to a worker that runs dry and selects; a busy look
     * more often than this gave the echo servers a longer tail (docs/benchmark-history.md).
     */
    public static final int POLL_INTERVAL = SystemProps.intProp("spindle.net.pollInterval", 1023);

    static final int ACTIVE = 0;
    static final int PARKED = 1;
    static final int SIGNALLED = 2;

    /** The local LIFO stack; replaced by a fresh copy every few items (see {@link LocalStack}). Owner only. */
    private LocalStack stack = new LocalStack();
    /** Steps left before the current item must bounce. Owner: plain rw. */
    private int fuel;
    /** Inline completions left to the current item's direct body ({@link #spendInlineAwait}). Owner: plain rw. */
    private int inlineAwaits;
    /** Bounces since the last automatic yield. Owner: plain rw. */
    private int bounces;
    /** Items run since the last look (local ones; the inbox's too on an empty stack). Owner: plain rw. */
    private int localRuns;
    /** An automatic yield has put off the next look at the global queue ({@link #bounce}). Owner: plain rw. */
    private boolean lookPostponed;
    /** The last look ({@link #look}) tried the global queue before the inbox. Owner: plain rw. */
    private boolean lookedGlobalFirst;
    /** Items taken from the global queue in the current turn ({@link #GLOBAL_TURN}). Owner: plain rw. */
    private int globalTaken;
    /** Lets the item beneath a pair that wakes each other run, at looks. Owner only. */
    private final StarvationGuard starvation = new StarvationGuard();
    /** A waiting direct body runs an item on its own stack ({@link #helpWith}). Owner: plain rw. */
    private boolean helping;
    /** Items run by {@link #helpWith} so far. Owner: plain rw. */
    private long helped;
    /** Items left before the next non-blocking look at the engine's poller. Owner: plain rw. */
    private int pollCountdown = POLL_INTERVAL;
    /** Fibers started on this worker. Owner: release writes; {@link Engine#liveFibers()}: acquire reads. */
    private long fibersStarted;
    /** Fibers finished on this worker. Owner: release writes; {@link Engine#liveFibers()}: acquire reads. */
    private long fibersFinished;
    /**
     * Progress for the starvation watchdog: incremented on entering and on leaving every item, so it is odd
     * while an item runs. Owner: opaque writes (a plain store, never elided); the watchdog: opaque reads.
     */
    private int progress;
    /** Parks of this worker's driver; for metrics. Owner: plain rw; others: racy reads. */
    private long parks;
    /** Parks that ended with a producer's signal; for metrics. Owner: plain rw; others: racy reads. */
    private long wakeups;
    /** Items this worker moved to the global queue for idle workers; for metrics. Owner: plain rw. */
    private long shared;
    /** {@link #progress} at this worker's last share ({@link #SHARE_HOLD}); none yet at first. Owner: plain rw. */
    private int sharedAt = -2 * SHARE_HOLD;
    /** The last share walked at least {@link #DEEP_SHARE} links. Owner: plain rw. */
    private boolean deepShare;
    /** A signal ended this worker's last park. Owner: plain rw. */
    private boolean woken;
    /** {@link #progress} when that signal ended the park. Owner: plain rw. */
    private int wokenAt;

    /** The engine this worker belongs to. */
    final Engine engine;
    /** Position in {@code engine.workers}. */
    final int index;
    /** ACTIVE, PARKED or SIGNALLED. Owner and producers: volatile (CAS from PARKED). */
    volatile int state;
    /** The thread currently driving this worker, for unpark. Written by the driver before it parks. */
    volatile Thread thread;
    /** The API layer's per-thread slot (the direct body this thread runs), cheaper than a thread-local. Owner. */
    private Object threadSlot;
    /** Index of the worker the next detached direct body started here starts on (Engine). Owner: plain rw. */
    int nextPlacement;
    /** Work other threads handed to this worker ({@link #pushInbox}); newest first. CAS push, swap take. */
    private volatile Work inbox;
    /** Inbox items taken and not yet run (a chain through {@code Work.next}). Owner only. */
    private Work pinned;

    Worker(Engine engine, int index) {
        this.engine = engine;
        this.index = index;
    }

    /** The engine running this worker. */
    public Engine engine() {
        return engine;
    }

    /** The slot of this worker's own thread (the field {@code threadSlot}). Only that thread may call it. */
    public Object ownThreadSlot() {
        assert isOwnThread();
        return threadSlot;
    }

    /** Sets the slot of this worker's own thread. Only that thread may call it. */
    public void setOwnThreadSlot(Object o) {
        assert isOwnThread();
        threadSlot = o;
    }

    private boolean isOwnThread() {
        return Thread.currentThread() instanceof WorkerThread wt && wt.worker == this;
    }

    /** Pushes {@code wk} on this worker's local stack; it runs before anything queued earlier here. */
    public void push(Work wk) {
        LocalStack s = stack;
        Work t = s.top;
        wk.next = t;
        if (t == null) {
            s.bottom = wk;
        }
        s.top = wk;
    }

    /**
     * Whether the newest item on this worker's stack is a continuation of {@code fiber}. Owner only. Since
     * a fiber's code runs in one place at a time and only this thread takes items off its stack, a true
     * answer means the fiber's code is suspended here and cannot run until this thread lets it.
     */
    public boolean topContinues(FiberBase<?> fiber) {
        return stack.top instanceof Cont<?> k && k.fiber() == fiber;
    }

    /**
     * Takes {@code wk} back off this worker's stack if it is the top item (the one the loop would run next),
     * for the caller to run now instead of through the loop; true when it did. Owner only.
     */
    public boolean popIfTop(Work wk) {
        if (stack.top != wk) {
            return false;
        }
        popLocal();
        return true;
    }

    /**
     * The item a direct body that must wait, on this thread, may run on its own stack instead of yielding to
     * this loop, which would pop that very item next; null when it may not. The item is the top of the stack
     * and must be the only local item (so nothing beneath it waits to be shared or starves); nobody must have
     * handed this worker work (the inbox), no body may be helping already (one level of nesting: a helped
     * body that waits yields), the runtime must choose the order (not the driver), and at the loop's periodic
     * look ({@link #GLOBAL_CHECK_INTERVAL}) the global queue must be empty. Every help counts as a local run,
     * so a ping-pong helped forever still lets the loop look at the global queue. Owner only.
     */
    public Work helpable() {
        Work t = stack.top;
        if (t == null || t.next != null || helping || pinned != null || inbox != null || !engine.runtimeChoosesOrder()) {
            return null;
        }
        if (((localRuns + 1) & (GLOBAL_CHECK_INTERVAL - 1)) == 0 && engine.hasGlobalWork()) {
            return null; // the loop's next item is its look at the global queue: yield to it
        }
        return t;
    }

    /** Takes {@code wk}, found by {@link #helpable}, off the stack and runs it as the loop would, helping. */
    public void helpWith(Work wk) {
        popLocal(); // wk, the top (helpable)
        localRuns++;
        helped++;
        helping = true;
        try {
            run(wk);
        } finally {
            helping = false;
        }
    }

    /** How many items waiting direct bodies have run on their stacks here ({@link #helpWith}). Owner only. */
    public long helpedCount() {
        return helped;
    }

    /**
     * Pushes {@code wk}, which wakes {@code fiber} (null: work of no fiber): here when the fiber belongs to
     * this worker's engine, else on its own engine's global queue. A fiber runs only on its engine's
     * workers: that engine's {@code close()} waits for it, and another engine (a single-threaded one
     * above all, which runs only while some thread drives it) may never run it.
     */
    public void pushWake(FiberBase<?> fiber, Work wk) {
        Engine home = fiber == null ? engine : fiber.engine();
        if (home == engine) {
            push(wk);
        } else {
            home.pushGlobal(wk);
        }
    }

    /** Spends one step of the item's budget; true when the caller must {@link #bounce} instead of recursing. */
    public boolean outOfFuel() {
        return --fuel < 0;
    }

    /** Whether at least half of the current item's step budget is left. */
    public boolean hasHalfFuel() {
        return fuel >= FUEL / 2;
    }

    /**
     * Spends one of the current item's inline completions of a direct body's awaits, as many as the steps a
     * stackless item takes between automatic yields; true when none is left, and the body must yield with
     * {@link #yieldBehind}. A bounce inside the body's run does not renew them, as it renews the fuel: it
     * ends a stackless step, not the body's run.
     */
    public boolean spendInlineAwait() {
        return --inlineAwaits < 0;
    }

    /** Queues {@code wk} as an automatic yield: behind the other work of this worker, if it has any. */
    public void yieldBehind(Work wk) {
        bounces = BOUNCES_PER_YIELD;
        bounce(wk);
    }

    /**
     * Queues {@code wk} to continue after the stack unwinds; every few bounces, behind other work if this
     * worker has any to run (its stack, its inbox, the global queue). With none, the yield would only wake
     * an idle worker to race for the very item (a futex call, and the busy fiber moving cores).
     */
    public void bounce(Work wk) {
        fuel = FUEL;
        if (bounces < BOUNCES_PER_YIELD) {
            bounces++; // stays at the period while there is nothing to yield to: it yields once there is
        }
        if (bounces >= BOUNCES_PER_YIELD && hasOtherWork()) {
            bounces = 0;
            engine.pushGlobal(wk);
            // The local work the busy item sat on runs next: the next look, which would take the busy item
            // straight back when the yield period is a multiple of GLOBAL_CHECK_INTERVAL (the surefire run
            // "other-fuel" keeps FairnessTest on such values), comes a full interval later. Once per look:
            // yields more frequent than looks (a direct body's children bouncing) would put it off for ever.
            if (!lookPostponed) {
                lookPostponed = true;
                localRuns = 0;
            }
        } else {
            push(wk);
        }
    }

    /** Whether work other than the running item waits for this worker. Owner only. */
    private boolean hasOtherWork() {
        return stack.top != null || pinned != null || inbox != null || engine.hasGlobalWork();
    }

    /** Counts a fiber started by code running on this worker. */
    public void fiberStarted() {
        FIBERS_STARTED.setRelease(this, fibersStarted + 1);
    }

    /** Counts a fiber that finished on this worker. */
    public void fiberFinished() {
        FIBERS_FINISHED.setRelease(this, fibersFinished + 1);
    }

    /** Fibers counted started here (acquire read: for metrics and the engine's quiescence count). */
    public long fibersStartedHere() {
        return (long) FIBERS_STARTED.getAcquire(this);
    }

    /** Fibers counted finished here (acquire read: for metrics and the engine's quiescence count). */
    public long fibersFinishedHere() {
        return (long) FIBERS_FINISHED.getAcquire(this);
    }

    /** True when this worker has local work queued. Owner only. */
    boolean hasLocalWork() {
        return stack.top != null || pinned != null || inbox != null;
    }

    /** Runs work on the calling thread until {@code stop} says so. The caller drives this worker meanwhile. */
    void runUntil(StopCondition stop) {
        DriveMark mark = Drivers.begin(this);
        try {
            while (!stop.isStopped()) {
                Work wk = nextWork();
                if (wk != null) {
                    run(wk);
                    if (--pollCountdown == 0) {
                        pollNetwork();
                    }
                } else {
                    engine.terminateIfQuiescent(this); // after shutdown(): the last fiber may have ended
                    idle(stop);
                }
            }
        } finally {
            Drivers.end(this, mark);
        }
        // A driver of a single-threaded engine may stop right as the last fiber ends, before it runs dry.
        engine.terminateIfQuiescent(this);
    }

    /** The busy poll (see {@link Poller}): a non-blocking look, when the engine has a poller. */
    private void pollNetwork() {
        pollCountdown = POLL_INTERVAL;
        Poller p = engine.poller();
        if (p != null) {
            p.pollNow(this);
        }
    }

    /**
     * Runs one item, routing an escaping exception to the item's own handler. The item is published in the
     * (young) stack object, not in this long-lived worker: see {@link LocalStack} for the barrier that avoids.
     */
    void run(Work wk) {
        fuel = FUEL;
        inlineAwaits = FUEL * BOUNCES_PER_YIELD;
        stack.running = wk;
        PROGRESS.setOpaque(this, progress + 1);
        try {
            wk.doWork(this);
        } catch (Throwable e) {
            handleEscaped(wk, e);
        } finally {
            PROGRESS.setOpaque(this, progress + 1);
        }
    }

    /** The watchdog's progress count: odd while an item runs, changed by every item. Any thread. */
    public int progress() {
        return (int) PROGRESS.getOpaque(this);
    }

    /** Items run since {@link #progress} was {@code mark} (it counts twice per item). Owner only. */
    private int itemsSince(int mark) {
        return (progress - mark) >>> 1;
    }

    /**
     * Whether this worker's driver is parked, out of work (a nested drive may park inside an item), and not yet
     * signalled: for the watchdog, and for a {@link Poller} about to block.
     */
    public boolean isParked() {
        return state == PARKED;
    }

    /** The item this worker runs or last ran (racy: for reports only), or null. Any thread. */
    public Work runningItem() {
        return stack.running;
    }

    /** The thread driving this worker now, or the last one, or null. Any thread. */
    public Thread driver() {
        return thread;
    }

    /** Parks of this worker (racy read; for metrics). */
    public long parks() {
        return parks;
    }

    /** Parks that a producer's signal ended (racy read; for metrics). */
    public long wakeups() {
        return wakeups;
    }

    /** Items shared with idle workers (racy read; for metrics). */
    public long sharedItems() {
        return shared;
    }

    /** Items on this worker's stack, inbox and pinned list, by a racy walk of at most {@code limit} links each. */
    public long queuedEstimate(int limit) {
        return count(stack.top, limit) + count(pinned, limit) + count(inbox, limit);
    }

    private static long count(Work head, int limit) {
        long n = 0;
        for (Work w = head; w != null && n < limit; w = w.next) {
            n++;
        }
        return n;
    }

    private void handleEscaped(Work wk, Throwable e) {
        fuel = FUEL;
        try {
            wk.doHandle(this, e);
        } catch (Throwable second) {
            second.addSuppressed(e);
            engine.reportUncaught(second);
        }
    }

    /**
     * The next item to run: local first (with a periodic look at the inbox and the global queue), else the
     * inbox, else global.
     */
    Work nextWork() {
        LocalStack s = stack;
        Work wk = s.top;
        if (wk == null) {
            return nextElsewhere();
        }
        if ((++localRuns & (GLOBAL_CHECK_INTERVAL - 1)) == 0) {
            Work p = look();
            if (p != null) {
                return p;
            }
            s = stack;
            wk = starvation.next(s, wk);
        }
        Work rest = wk.next;
        wk.next = null;
        s.top = rest;
        if (rest == null) {
            s.bottom = null;
        } else if (engine.idleCount() > 0
                && (!deepShare || itemsSince(sharedAt) >= engine.shareGap())) {
            shareOldest(s, rest);
        }
        return wk;
    }

    /** With the local stack empty: the inbox, else the global queue; the global queue first at a look. */
    private Work nextElsewhere() {
        if (pinned == null && inbox == null) {
            return engine.pollGlobal();
        }
        // an inbox that never empties takes its turns with the global queue too, counted as items here
        if ((++localRuns & (GLOBAL_CHECK_INTERVAL - 1)) == 0) {
            Work g = engine.pollGlobal();
            if (g != null) {
                return g;
            }
        }
        return pollInbox(); // not null: only this owner takes from the inbox
    }

    /**
     * The periodic look beyond a non-empty stack: an inbox or global item to run first, or null. Looks
     * alternate between the inbox first and the global queue first (a turn of global items goes on first).
     */
    private Work look() {
        lookPostponed = false;
        renewStack(stack);
        boolean globalFirst = globalTaken > 0 || (lookedGlobalFirst = !lookedGlobalFirst);
        Work p = globalFirst ? null : pollInbox();
        if (p != null) {
            return p;
        }
        if (engine.hasGlobalWork() && itemsSince(sharedAt) >= SHARE_HOLD) {
            Work g = engine.pollGlobal();
            if (g != null) {
                if (++globalTaken < GLOBAL_TURN && engine.hasGlobalWork()) {
                    localRuns--; // the next item is another look
                } else {
                    globalTaken = 0;
                }
                return g;
            }
        }
        globalTaken = 0;
        return globalFirst ? pollInbox() : null;
    }

    private LocalStack renewStack(LocalStack old) {
        LocalStack s = new LocalStack();
        s.top = old.top;
        s.bottom = old.bottom;
        s.running = old.running;
        stack = s;
        return s;
    }

    /**
     * Moves the oldest items of the stack under {@code rest} (the new top) to the global queue and wakes a
     * worker. The oldest items are the continuations pushed first, the parents whose remaining work is
     * largest in a fork/join tree: given one of those, a woken worker stays busy, where the newest items
     * (a leaf's parent) ran out before its next park and cost a wake-up each. At most {@link #SHARE_WALK}
     * links are walked to find them; on a deeper stack everything below that depth is shared. Nothing is
     * shared while the oldest item can run only here ({@link Work#boundTo}, a direct body's next step):
     * another worker would hand it back through the inbox, one wake-up each for nothing.
     */
    private void shareOldest(LocalStack s, Work rest) {
        Work last = s.bottom;
        if (last.boundTo(this)) {
            return;
        }
        if (rest == last) {
            s.top = null;
            s.bottom = null;
            shared++;
            sharedAt = progress;
            deepShare = false;
            engine.pushGlobalChain(rest, last);
            return;
        }
        Work keep = rest;
        int i = 0;
        for (; i < SHARE_WALK && keep.next != last; i++) {
            keep = keep.next;
        }
        deepShare = i >= DEEP_SHARE;
        Work chain = keep.next;
        keep.next = null;
        s.bottom = keep;
        shared++;
        sharedAt = progress;
        engine.pushGlobalChain(chain, last);
    }

    /**
     * Hands {@code wk} to this worker from any thread: only this worker's thread runs it (work tied to a
     * thread: direct bodies resume on the thread they started on, see ContinuationBody), never a worker it shares
     * work with. Wakes the worker if it is parked. The inbox is a Treiber stack through {@code Work.next}.
     */
    public void pushInbox(Work wk) {
        Work h;
        do {
            h = inbox;
            wk.next = h;
        } while (!INBOX.compareAndSet(this, h, wk));
        // Dekker with idle(): the CAS (a full fence) publishes before we read state; idle() publishes
        // PARKED before it re-reads the inbox.
        signalIfParked();
    }

    /**
     * The next inbox item, or null. Items taken at once run newest first, as the local stack's do, unless
     * more than {@link #INBOX_BACKLOG}: a backlog handed over while this worker was busy (wake-ups due in a
     * collector's pause) runs oldest first. They wait in {@link #pinned}, never on the local stack, so
     * sharing never moves them to another worker. Owner only.
     */
    private Work pollInbox() {
        Work p = pinned;
        if (p == null) {
            if (inbox == null) {
                return null;
            }
            p = Work.reversedIfLonger((Work) INBOX.getAndSet(this, null), INBOX_BACKLOG);
        }
        pinned = p.next;
        p.next = null;
        return p;
    }

    /** Pops the newest local item, or null. Owner only (used by drivers that choose the order). */
    Work popLocal() {
        LocalStack s = stack;
        Work wk = s.top;
        if (wk != null) {
            Work rest = wk.next;
            s.top = rest;
            if (rest == null) {
                s.bottom = null;
            }
            wk.next = null;
        }
        return wk;
    }

    private void idle(StopCondition stop) {
        if (woken) {
            woken = false;
            engine.adaptShareGap(itemsSince(wokenAt));
        }
        for (int i = 0; i < IDLE_SPINS; i++) {
            if (engine.hasGlobalWork() || inbox != null || stop.isStopped()) {
                return;
            }
            Thread.onSpinWait();
        }
        stack.running = null; // lets go of the last item while idle
        announceParked();
        while (mayPark(stop)) {
            Poller p = engine.poller(); // the idle poll (see Poller) replaces the park when there is one
            parks++;
            if (p == null || !p.pollBlocking(this)) {
                LockSupport.park(this);
            }
        }
        if (STATE.compareAndSet(this, PARKED, ACTIVE)) {
            engine.addIdle(-1);
        } else {
            wakeups++;
            state = ACTIVE; // a producer signalled us and already took us off the idle count
            woken = true;
            wokenAt = progress;
        }
    }

    /**
     * The first half of parking (the worker's side of the Dekker pair): announce PARKED, then count this
     * worker idle. Both are volatile writes, ordered before the re-check in {@link #mayPark}. A method of its
     * own so that spindle-jcstress can run exactly this step.
     */
    void announceParked() {
        STATE.setVolatile(this, PARKED);
        engine.addIdle(1);
    }

    /**
     * The re-check after {@link #announceParked}: true when there is nothing to run, no stop, no signal yet,
     * and no closing engine waiting to be terminated by this worker, so the worker may park. A producer
     * published its work before reading idleCount, or will see our count and signal us (a signal given
     * before the park makes the park return at once).
     */
    boolean mayPark(StopCondition stop) {
        return !engine.hasGlobalWork() && inbox == null && !stop.isStopped() && state == PARKED
                && !engine.isClosingAndQuiescent();
    }

    /** Wakes this worker if it is parked; true when this call did it. */
    boolean signalIfParked() {
        if (state == PARKED && STATE.compareAndSet(this, PARKED, SIGNALLED)) {
            engine.addIdle(-1);
            LockSupport.unpark(thread);
            wakePoll();
            return true;
        }
        return false;
    }

    /** Unparks the driving thread, whatever its state (stop conditions changed). */
    void unpark() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
        wakePoll();
    }

    /** Interrupts this worker's blocking poll, if the engine has a poller (see {@link Poller}). */
    private void wakePoll() {
        Poller p = engine.poller();
        if (p != null) {
            p.wakeUp(this);
        }
    }

    @Override
    public String toString() {
        return "Worker-" + index + (state == PARKED ? " (parked)" : "");
    }

    private static final VarHandle STATE = SpinLock.handle(MethodHandles.lookup(), Worker.class, "state");
    private static final VarHandle INBOX =
            SpinLock.handle(MethodHandles.lookup(), Worker.class, "inbox", Work.class);
    private static final VarHandle FIBERS_STARTED =
            SpinLock.handle(MethodHandles.lookup(), Worker.class, "fibersStarted", long.class);
    private static final VarHandle FIBERS_FINISHED =
            SpinLock.handle(MethodHandles.lookup(), Worker.class, "fibersFinished", long.class);
    private static final VarHandle PROGRESS = SpinLock.handle(MethodHandles.lookup(), Worker.class, "progress");
}
