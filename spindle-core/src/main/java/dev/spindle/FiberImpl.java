package dev.spindle;

import dev.spindle.internal.diag.DumpText;
import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.FailWork;
import dev.spindle.internal.run.FiberObserver;
import dev.spindle.internal.run.SpinLock;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The runtime object of a fiber: root continuation of its job, cancellation token, node of the
 * cancellation tree and wait list of its joiners. Users see it through {@link Fiber}.
 *
 * @implNote One object of 56 bytes (compressed oops; pinned by MemoryFootprintTest); a fiber blocked on a
 *     one-shot signal costs this plus what the signal keeps per waiter (nothing, when the fiber's job is the
 *     read itself).
 * @param <A> the type of the fiber's value
 */
final class FiberImpl<A> extends FiberBase<A> implements Blocker, Fiber<A> {
    /*
     * Implementation overview
     * =======================
     * State and transitions
     *   name       | meaning
     *   ACTIVE     | not finished: new (value holds the Job) or started (value: what it resumes with)
     *   SUCCEEDED  | done with a value (value holds it)
     *   FAILED     | done with a failure (value holds the Throwable)
     *   CANCELLED  | done by cancellation
     *
     *   ACTIVE -> { SUCCEEDED | FAILED | CANCELLED }     (once, by CAS)
     *
     * The state word is also the lock of the joiner list: ACTIVE | LOCKED while a joiner (or a canceller
     * withdrawing one) holds it. Finishing is one CAS from ACTIVE, and it fails while the lock is held, so
     * the finisher then waits for the holder; a locker gives up once the state is final (there is nothing
     * left to guard: the finisher owns the list from its CAS on). LOCKED is the sign bit, so "state >=
     * SUCCEEDED" reads "done" with no masking. New and started share ACTIVE: only the fiber's own first
     * run tells them apart, by the UNSTARTED bit of pending, which it clears with a plain store (nobody else
     * writes pending before the fiber has started a child), so starting writes no word that others CAS.
     *
     * The value slot (inherited from Cont, where a resumer leaves what the fiber resumes with) serves four
     * uses that never overlap: the job before the start, the blocker while the fiber runs and waits (see
     * below), the value a resumer of the fiber's own continuation leaves for it, the outcome after the end.
     *
     * Cancel state (packed int: bit 0 = requested, bits 1..30 = uncancelable nesting depth, bit 31 =
     * a canceller's turn; see FiberBase)
     *   The hot-path check is one volatile read compared with 1: "requested and not masked".
     *   Requests set bit 0 by CAS from any thread; the owner adds/subtracts 2 by CAS on mask/unmask.
     *   A request that finds the fiber unmasked withdraws its wait and cancels its children in a turn the
     *   fiber's mask waits out, so a late canceller never reaches what a finalizer started or waits on.
     *   Withdrawal itself re-reads the mask once it has found the waiter (see Blocker#removeWaiter), for
     *   the fiber's own late check after it enqueued (it may have been resumed and masked elsewhere).
     *
     * Blocking and cancellation
     *   A fiber about to wait writes the blocker into its value slot, enqueues its continuation, then
     *   re-reads the cancel state; a canceller sets the cancel bit, then reads the slot and asks the blocker
     *   there to give the continuation back. Both are volatile write-then-read pairs (Dekker), so at least
     *   one of them withdraws the waiter; removal happens under the blocker's lock, so it is exclusive with
     *   a normal resume. The slot may be stale after a resume, or hold the value a resumer left for the
     *   fiber's own continuation (the job has ended then; the fiber waits nowhere): a stale blocker finds
     *   no waiter of this fiber and returns null, which is harmless, and a value that is no Blocker is
     *   skipped.
     *
     * Children (the cancellation tree)
     *   pending = 1 (the fiber itself, until it finishes) + children not yet retired. A fiber retires
     *   from its parent when pending reaches 0, so a finished parent stays linked while children live.
     *   Children form a Treiber stack through nextSibling (pushed by CAS on firstChild); retired children
     *   at the top are dropped on the next push, and the whole list is dropped when pending returns to 1
     *   while the fiber itself still runs (only the fiber itself left; once it has finished, pending == 1
     *   means one live child) or reaches 0. A parent that always has some live child never gets there, so
     *   the parent (the only pusher) also unlinks retired children from the middle of its list once it has
     *   pushed as many children as it has live ones (the debt in its FiberExtras, made by the first push
     *   while another child is live): amortised O(1) per push,
     *   and the list stays within about twice the live children. Unlinking only skips retired children
     *   (pending == 0 never changes again), so a concurrent canceller walking the list, old links or new,
     *   still meets every live child. Nothing takes a lock.
     *   INV: every child with pending > 0 is reachable from its parent's firstChild.
     *
     *   Two moments when nobody else can write a fiber's pending or firstChild, so plain stores replace
     *   the read-modify-writes (fork/join starts a child and runs it to its end in one go: both apply):
     *   - linking a child while no other is live (addOnlyChild): only live children retire, only the
     *     fiber's own code links; a full fence keeps the Dekker pair with a canceller's walk (for a leaf
     *     child run at once, the locked instruction that ends it does, see addLeafChild);
     *   - its only live child retiring while the fiber's continuation is the top item of the retiring
     *     worker's own stack (dropOnlyChildWhileSuspended): the fiber's code cannot run meanwhile.
     *   A drop by an earlier child still racing with either expects an older head, and its CAS fails.
     *
     * Joiners: continuations waiting for the outcome, a LIFO list guarded by the lock in the state word.
     * A fiber whose failure goes to the uncaught handler when nobody joins it starts with REPORTS_UNCAUGHT
     * as the list's last entry (a marker, never resumed): "nobody joins" is then the list being the marker.
     */
    static final int ACTIVE = 0;
    static final int SUCCEEDED = 2;
    static final int FAILED = 3;
    static final int CANCELLED = 4;

    /** Bit of pending set from construction until the first run takes the job (owner's plain stores). */
    private static final int UNSTARTED = 1 << 30;
    /** The last joiner of a fiber that reports an unjoined failure (see the overview); never resumed. */
    private static final Cont<Object> REPORTS_UNCAUGHT = new Cont<>(null) {
        @Override
        public void doCont(Worker w, Object a) {
            throw new AssertionError("the uncaught-failure marker is not a joiner");
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            throw new AssertionError("the uncaught-failure marker is not a joiner", e);
        }
    };
    /** Set in state while the joiner list is locked (only ever on ACTIVE). */
    private static final int LOCKED = 1 << 31;

    /** The engine this fiber runs on. */
    final Engine engine;
    /**
     * The fiber that started it (null for roots and detached fibers), or, once the fiber uses fiber-local
     * state or has had several live children at once, the {@link FiberExtras} that holds that same parent and
     * the rest: one field for both, so that a fiber that needs none stays at 56 bytes. Written at
     * construction and by the fiber's own code (once, on its first use of extras); read by retiring
     * descendants on other threads, which may see either form: both give the same parent
     * (FiberExtras.parent is final, so a racy read sees it initialised).
     */
    private Object parentOrExtras;
    /** Lifecycle state and the joiner lock (see above). CAS and release stores; volatile reads. */
    private volatile int state;
    /** Waiting continuations, LIFO through next. Guarded by the lock in state; the finisher's once final. */
    private Cont<?> joiners;
    /** Newest child. CAS by the fiber's own code (push) and by retiring children (drop). */
    private volatile FiberImpl<?> firstChild;
    /**
     * Next older sibling. Written before the publishing CAS of the parent's firstChild; afterwards by the
     * parent's own code, to unlink retired siblings, and set to null by whoever detaches the whole list of
     * retired children (unchain). Plain writes: a racing reader sees either link.
     */
    private FiberImpl<?> nextSibling;
    /**
     * 1 while running + children not yet retired; plus {@link #UNSTARTED} until the first run. Atomic once
     * the fiber has started.
     */
    private volatile int pending;

    @SuppressWarnings("unchecked")
    FiberImpl(Job<A> job, Engine engine, FiberImpl<?> parent, boolean reportsFailure) {
        setResumeValue((A) job); // until the first run (see the overview)
        this.engine = engine;
        this.parentOrExtras = parent;
        if (reportsFailure) {
            this.joiners = REPORTS_UNCAUGHT;
        }
        // A plain store: a volatile one would be a StoreLoad fence in every start.
        // Nobody reads the count before the fiber is published (CAS on the parent's list, a queue push),
        // which orders it.
        PENDING.set(this, UNSTARTED | 1);
        if (parent == null) {
            engine.addRoot(this);
        } else {
            inheritBindings(parent); // the constructor runs in the parent's code
        }
        FiberObserver o = engine.observer();
        if (o != null) {
            o.started(this);
        }
    }

    @Override
    public Engine engine() {
        return engine;
    }

    // ---------------------------------------------------------------- the public handle (Fiber)

    @Override
    public Job<A> join() {
        return new FiberJobs.Join<>(this, false);
    }

    @Override
    public Job<Outcome<A>> outcome() {
        return new FiberJobs.Join<>(this, true);
    }

    @Override
    public Job<Void> cancel() {
        return new FiberJobs.CancelFiber(this);
    }

    @Override
    public CompletableFuture<A> toCompletableFuture() {
        return FiberFuture.of(this);
    }

    // ---------------------------------------------------------------- fiber-local state

    /** The parent link, whichever form the field has. */
    FiberImpl<?> parent() {
        Object p = parentOrExtras;
        return p instanceof FiberExtras x ? x.parent : (FiberImpl<?>) p;
    }

    /** This fiber's extras, or null when it has used none. Fiber's own code only. */
    FiberExtras extrasOrNull() {
        return parentOrExtras instanceof FiberExtras x ? x : null;
    }

    /** This fiber's extras, made on first use. Fiber's own code only (or its starter, before it runs). */
    FiberExtras extras() {
        Object p = parentOrExtras;
        if (p instanceof FiberExtras x) {
            return x;
        }
        FiberExtras x = new FiberExtras((FiberImpl<?>) p);
        parentOrExtras = x;
        return x;
    }

    /**
     * Gives this new fiber the local bindings {@code starter} has now (called by the starter before the
     * fiber is published). A starter without bindings costs one field read.
     */
    void inheritBindings(FiberImpl<?> starter) {
        FiberExtras from = starter.extrasOrNull();
        if (from != null && !from.bindings.isEmpty()) {
            extras().bindings = from.bindings;
        }
    }

    // ---------------------------------------------------------------- queries

    /** Whether this fiber has finished (in any way). */
    @Override
    public boolean isDone() {
        return state >= SUCCEEDED;
    }

    /** {@code fiber-12 "reader" [running]}: the id, the name given with {@code named(..)}, the state. */
    @Override
    public String toString() {
        return label() + " [" + stateName() + "]";
    }

    /** The fiber's number in dumps and reports ({@link DumpText#idOf}). */
    long id() {
        return DumpText.idOf(this);
    }

    /** {@code fiber-12 "reader"}, or {@code fiber-12} when unnamed. */
    String label() {
        return DumpText.label(id(), engine.fiberName(this));
    }

    private String stateName() {
        return switch (state) {
            case ACTIVE, LOCKED -> {
                if (isUnstarted()) { // racy: a fiber starting meanwhile reads as new
                    yield "new";
                }
                Blocker b = lastBlocker();
                yield b == null ? "running" : "running, last blocked on " + b.describe();
            }
            case SUCCEEDED -> "succeeded";
            case FAILED -> "failed";
            default -> "cancelled";
        };
    }

    // ---------------------------------------------------------------- running

    /** Starts the job (first run) or completes with the value a blocker resumed the fiber with. */
    @Override
    @SuppressWarnings("unchecked")
    public void doWork(Worker w) {
        if ((int) PENDING.get(this) == (UNSTARTED | 1)) {
            PENDING.set(this, 1); // no child yet, so nobody else writes pending (see the overview)
            Job<A> job = (Job<A>) resumeValue();
            setResumeValue(null);
            // Always entered, even with a cancel pending: finalizers that wrap the whole job must run,
            // and the job observes the cancel at its first bind or wait like any other.
            job.doJob(w, this);
        } else {
            doCont(w, resumeValue());
        }
    }

    /** The job finished with {@code a}. */
    @Override
    public void doCont(Worker w, A a) {
        complete(w, SUCCEEDED, a);
    }

    /** The job failed with {@code e}, or was cancelled. */
    @Override
    public void doHandle(Worker w, Throwable e) {
        if (CancelSignal.is(e)) {
            complete(w, CANCELLED, null);
        } else {
            complete(w, FAILED, e);
        }
    }

    @SuppressWarnings("unchecked")
    private void complete(Worker w, int finalState, Object result) {
        if (state >= SUCCEEDED) {
            throw new IllegalStateException("fiber completed twice: " + this);
        }
        setResumeValue((A) result); // published by the CAS or store of the final state below
        if (!STATE.compareAndSet(this, ACTIVE, finalState)) {
            // a joiner holds the lock: wait for it, then publish under the lock
            if (!lockJoiners()) {
                throw new IllegalStateException("fiber completed twice: " + this);
            }
            STATE.setVolatile(this, finalState);
        }
        // From here no one else touches the list: lockers give up on a final state. Every joiner pushed
        // before is visible (its unlock is ordered before the CAS or lock that succeeded above).
        Cont<?> waiting = joiners;
        if (waiting != null) {
            joiners = null;
            if (waiting == REPORTS_UNCAUGHT) {
                waiting = null;
                if (finalState == FAILED) {
                    engine.reportUncaught(this, (Throwable) result);
                }
            }
        }
        while (waiting != null && waiting != REPORTS_UNCAUGHT) {
            Cont<?> next = (Cont<?>) waiting.queueLink();
            waiting.setQueueLink(null);
            resumeJoiner(w, waiting);
            waiting = next;
        }
        engine.fiberFinished(w);
        FiberObserver o = engine.observer();
        if (o != null) {
            o.finished(this);
        }
        retire(w);
    }

    @SuppressWarnings("unchecked")
    private <B> void resumeJoiner(Worker w, Cont<B> k) {
        if (k instanceof Callback<?>) {
            w.push(k);
        } else if (k instanceof FiberJobs.OutcomeCont<?> oc) {
            ((FiberJobs.OutcomeCont<A>) oc).setResumeValue(outcomeNow());
            w.pushWake(oc.fiber(), oc);
        } else if (state == SUCCEEDED) {
            k.setResumeValue((B) resumeValue());
            w.pushWake(k.fiber(), k);
        } else {
            w.pushWake(k.fiber(), new FailWork(k, failureForJoiner()));
        }
    }

    /** The outcome of a finished fiber. */
    @SuppressWarnings("unchecked")
    Outcome<A> outcomeNow() {
        return switch (state) {
            case SUCCEEDED -> Outcome.success(resumeValue());
            case FAILED -> Outcome.failure((Throwable) resumeValue());
            case CANCELLED -> Outcome.cancelled();
            default -> throw new IllegalStateException("fiber not finished: " + this);
        };
    }

    /** The value of a finished successful fiber. */
    A valueNow() {
        return resumeValue();
    }

    /** The failure a joiner of a finished, unsuccessful fiber sees. */
    Throwable failureForJoiner() {
        return state == FAILED
                ? (Throwable) resumeValue()
                : new CancellationException("the joined fiber was cancelled");
    }

    int stateNow() {
        return state;
    }

    /**
     * Adds {@code k} as a joiner unless the fiber is already done; returns false when done (the caller
     * then continues at once). {@code k.fiber} may be null for a waiter on an ordinary thread.
     */
    boolean tryAddJoiner(Cont<?> k) {
        FiberImpl<?> waiter = (FiberImpl<?>) k.fiber();
        if (waiter != null) {
            waiter.blockOn(this);
        }
        if (!lockJoiners()) {
            return false;
        }
        k.setQueueLink(joiners);
        joiners = k;
        unlockJoiners();
        return true;
    }

    @Override
    public Cont<?> removeWaiter(FiberBase<?> waiter) {
        if (!lockJoiners()) {
            return null; // finished: the finisher has taken every joiner to resume it
        }
        Cont<?> prev = null;
        Cont<?> k = joiners;
        while (k != null && k.fiber() != waiter) {
            prev = k;
            k = (Cont<?>) k.queueLink();
        }
        if (k != null && waiter.cancelPending()) { // read under the lock: a join inside a mask stays
            if (prev == null) {
                joiners = (Cont<?>) k.queueLink();
            } else {
                prev.setQueueLink(k.queueLink());
            }
            k.setQueueLink(null);
        } else {
            k = null;
        }
        unlockJoiners();
        return k;
    }

    /** Locks the joiner list while the fiber is active; false once it has finished. */
    private boolean lockJoiners() {
        return SpinLock.lockWhile(STATE, this, ACTIVE, ACTIVE | LOCKED);
    }

    /** Unlocks it: the state cannot have changed while locked (finishing waits for ACTIVE). */
    private void unlockJoiners() {
        STATE.setRelease(this, ACTIVE);
    }

    @Override
    public String describe() {
        return "join of " + label();
    }

    /** The live children, newest first (racy: a child may finish meanwhile); for dumps. */
    void forEachLiveChild(Consumer<FiberImpl<?>> action) {
        for (FiberImpl<?> c = firstChild; c != null; c = c.nextSibling) {
            if (c.pending != 0) {
                action.accept(c);
            }
        }
    }

    /**
     * What this fiber last blocked on, or null: for deadlock reports and dumps (may be stale while running;
     * racy: meaningful only while the fiber has started and not finished).
     */
    Blocker lastBlocker() {
        return waitingSlot() instanceof Blocker b ? b : null;
    }

    /** Whether {@code k} is the uncaught-failure marker at the end of a joiner list (not a joiner); for tests. */
    static boolean isUncaughtMarker(Work k) {
        return k == REPORTS_UNCAUGHT;
    }

    /** Whether the first run has not taken the job yet (racy unless read by the fiber's own code). */
    boolean isUnstarted() {
        return (pending & UNSTARTED) != 0;
    }

    // ---------------------------------------------------------------- cancellation

    /**
     * Requests cancellation of this fiber and its live descendants; withdraws the fiber from what it is
     * blocked on when not masked. {@code w} is the caller's worker, or null on a foreign thread.
     */
    void requestCancel(Worker w) {
        int s = markCancelRequested();
        if (s < 0) {
            return;
        }
        if (s == 0) {
            try {
                withdrawIfBlocked(w);
                cancelChildren(w);
            } finally {
                endCancelling();
            }
        }
        // masked: the region's end (unmask) sees the request and cancels the children then
    }

    /** Requests cancellation of every live child. */
    void cancelChildren(Worker w) {
        for (FiberImpl<?> c = firstChild; c != null; c = c.nextSibling) {
            if (c.pending != 0) {
                c.requestCancel(w);
            }
        }
    }

    private void withdrawIfBlocked(Worker w) {
        if (waitingSlot() instanceof Blocker b) {
            Cont<?> k = b.removeWaiter(this);
            if (k != null) {
                resumeCancelled(w, k);
            }
        }
    }

    private void resumeCancelled(Worker w, Cont<?> k) {
        Work wk = new FailWork(k, CancelSignal.INSTANCE);
        if (w != null) {
            w.push(wk);
        } else {
            engine.enqueue(wk);
        }
    }

    /**
     * Called by a primitive after it enqueued this fiber's continuation at {@code b} (having set
     * {@link #blockOn} first): withdraws at once if cancellation arrived meanwhile.
     */
    @Override
    public void checkCancelWhileBlocked(Worker w, Blocker b) {
        if (cancelPending()) {
            Cont<?> k = b.removeWaiter(this);
            if (k != null) {
                resumeCancelled(w, k);
            }
        }
    }

    @Override
    public void announceBlocked(Blocker b) {
        FiberObserver o = engine.observer();
        if (o != null) {
            o.blocked(this, b);
        }
    }

    // ---------------------------------------------------------------- the tree

    /** Links {@code child} under this fiber; cancels it at once if this fiber is being cancelled. */
    void addChild(Worker w, FiberImpl<?> child) {
        if (link(child)) {
            VarHandle.fullFence(); // orders the plain link before the read below: see addOnlyChild
        }
        cancelIfCancelling(w, child);
    }

    /**
     * Links {@code child}, whose job is a {@link Pure.Leaf} that the caller runs at once on this thread, with
     * no fence and no read of this fiber's cancel state: the caller makes that read with
     * {@link #checkLeafChild} once the child has run. The child's outcome cannot depend on a cancellation,
     * and nothing but a canceller's walk can reach it before this fiber's code goes on, so asking it to
     * cancel after its run is as good as before.
     */
    void addLeafChild(FiberImpl<?> child) {
        link(child);
    }

    /**
     * The read that {@link #addChild} makes right after the link, made once the leaf {@code child} linked by
     * {@link #addLeafChild} has run. A child that has finished did so after a locked instruction of this
     * thread that followed the link (its completion's CAS when it ended here; the push to the global queue
     * that let another worker end it), which orders the link before this read as addChild's fence does; one
     * that has not (its run bounced) gets the fence.
     */
    void checkLeafChild(Worker w, FiberImpl<?> child) {
        if (!child.isDone()) {
            VarHandle.fullFence();
        }
        cancelIfCancelling(w, child);
    }

    /** Links {@code child}; true when by plain stores, which the caller must order before its next read. */
    private boolean link(FiberImpl<?> child) {
        if (pending == 1) {
            addOnlyChild(child);
            return true;
        }
        pushChild(child);
        return false;
    }

    /** Asks the just-linked {@code child} to cancel if this fiber is being cancelled (and not masked). */
    private void cancelIfCancelling(Worker w, FiberImpl<?> child) {
        if (cancelPending()) {
            child.requestCancel(w);
        }
    }

    /**
     * Links {@code child} when no other child is live (pending == 1, read by this fiber's own code): then
     * nobody else writes pending or firstChild (only live children retire, and only this code adds), so
     * plain stores do instead of two read-modify-writes. Whatever is still listed has retired, so the
     * child becomes the whole list; a drop by a retired child that is still racing expects an older head
     * and fails. The release store publishes the child to cancellers walking the list; the caller orders
     * it before its read of the cancel state (a full fence, or a locked instruction that follows anyway), the
     * Dekker pair of requestCancel (set the bit, then walk the children).
     */
    private void addOnlyChild(FiberImpl<?> child) {
        FiberImpl<?> retired = firstChild;
        child.nextSibling = null;
        FIRST_CHILD.setRelease(this, child);
        PENDING.set(this, 2);
        if (retired != null) {
            unchain(retired);
        }
    }

    /** Links {@code child} while other children may be live, and so may retire concurrently. */
    private void pushChild(FiberImpl<?> child) {
        PENDING.getAndAdd(this, 1);
        FiberImpl<?> h;
        do {
            h = firstChild;
            FiberImpl<?> live = h;
            while (live != null && live.pending == 0) {
                live = live.nextSibling; // drop retired children at the top
            }
            child.nextSibling = live;
        } while (!FIRST_CHILD.compareAndSet(this, h, child));
        // The debt is not reset when the list is dropped (addOnlyChild): a stale debt only brings the next
        // sweep forward, and that sweep's cost is charged to the pushes since the drop.
        FiberExtras x = extras();
        if (++x.sweepDebt >= pending) {
            sweepRetired(child);
            x.sweepDebt = 0;
        }
    }

    /** Unlinks the retired children below {@code newest} (just pushed by this fiber's own code). */
    private static void sweepRetired(FiberImpl<?> newest) {
        FiberImpl<?> prev = newest;
        for (FiberImpl<?> c = newest.nextSibling; c != null; c = c.nextSibling) {
            if (c.pending == 0) {
                prev.nextSibling = c.nextSibling;
            } else {
                prev = c;
            }
        }
    }

    /**
     * Drops this finished fiber's own unit from pending; at zero, retires from the parent (and so on up
     * the tree).
     *
     * <p>A finished fiber whose pending is 1 (its own unit: no live child) has nobody left who could change
     * its count: only its own code links children, and only live children give their unit back. So the
     * last unit drops with a release store instead of an atomic read-modify-write (the common case: a
     * leaf fiber). The release orders the fiber's final state before the 0 that sweeps read.
     */
    private void retire(Worker w) {
        FiberImpl<?> f = this;
        int left;
        if ((pending & ~UNSTARTED) == 1) { // UNSTARTED: a fiber finished without a first run (cancelled)
            PENDING.setRelease(this, 0);
            left = 0;
        } else {
            left = (int) PENDING.getAndAdd(this, -1) - 1;
        }
        while (true) {
            if (left == 1) {
                f.dropRetiredChildren();
                return;
            } else if (left > 0) {
                return;
            }
            // Finished, and no child is live: let go of the retired ones. A null list (every leaf) stays null,
            // since only the fiber's own code pushes, so nothing is written; otherwise the exchange lets
            // exactly one of this and a racing dropRetiredChildren unchain them.
            if (f.firstChild != null) {
                unchain((FiberImpl<?>) FIRST_CHILD.getAndSet(f, null));
            }
            FiberImpl<?> parent = f.parent();
            if (parent == null) {
                // a root stays registered while it has live descendants, so shutdownNow() reaches them
                f.engine.removeRoot(f);
            }
            f = parent;
            if (f == null) {
                return;
            }
            if (w != null && f.pending == 2 && w.topContinues(f)) {
                f.dropOnlyChildWhileSuspended();
                return;
            }
            left = (int) PENDING.getAndAdd(f, -1) - 1;
        }
    }

    /**
     * The only live child of this fiber has retired on a worker whose stack holds this fiber's
     * continuation on top ({@link Worker#topContinues}): this fiber's code is suspended there and can run
     * only when that thread lets it, so nobody else writes pending or firstChild now (only its code adds
     * children, no other child is live to retire, and it has not finished). The count drops and the list
     * goes with plain stores instead of two read-modify-writes: the common case of a child started and run
     * inline to its end (FiberJobs.Start), as in fork/join. A drop by an earlier child that is still racing
     * expects an older head and fails; a canceller walking the old list meets only retired children.
     */
    private void dropOnlyChildWhileSuspended() {
        PENDING.set(this, 1);
        FiberImpl<?> h = firstChild;
        if (h != null) {
            FIRST_CHILD.setRelease(this, null);
            unchain(h);
        }
    }

    /**
     * Drops the whole list when no child is live: pending == 1 read while the fiber has not finished (its
     * own unit is dropped only after its state is written), so the 1 is the fiber itself. Once it has
     * finished, pending == 1 is a live child, which must stay reachable. A child pushed meanwhile changes
     * firstChild and makes the CAS fail.
     */
    private void dropRetiredChildren() {
        FiberImpl<?> h = firstChild;
        if (h != null && pending == 1 && !isDone() && FIRST_CHILD.compareAndSet(this, h, null)) {
            unchain(h);
        }
    }

    /**
     * Cuts the links of a list just detached from its parent, all of whose children have retired: otherwise
     * whoever still holds one of them (a Fiber handle, a stale reference) keeps every older sibling
     * reachable through nextSibling, and a long list is a long chain for the collector. A walker still on
     * the old list (a canceller, a racing addChild scan) may stop early, which is harmless: every entry is
     * retired, and a child pushed after the detach is only reachable from the new firstChild.
     */
    private static void unchain(FiberImpl<?> h) {
        FiberImpl<?> c = h;
        while (c != null) {
            FiberImpl<?> next = c.nextSibling;
            c.nextSibling = null;
            c = next;
        }
    }

    /** Number of children linked (live or awaiting trimming); for tests and fiber dumps. */
    int linkedChildren() {
        int n = 0;
        for (FiberImpl<?> c = firstChild; c != null; c = c.nextSibling) {
            n++;
        }
        return n;
    }

    /** The next older sibling this fiber links, or null; for tests. */
    FiberImpl<?> olderSibling() {
        return nextSibling;
    }

    /** Number of children not yet retired. */
    int liveChildren() {
        int p = pending & ~UNSTARTED;
        return isDone() ? p : p - 1;
    }

    private static final VarHandle STATE;
    private static final VarHandle PENDING;
    private static final VarHandle FIRST_CHILD;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(FiberImpl.class, "state", int.class);
            PENDING = l.findVarHandle(FiberImpl.class, "pending", int.class);
            FIRST_CHILD = l.findVarHandle(FiberImpl.class, "firstChild", FiberImpl.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
