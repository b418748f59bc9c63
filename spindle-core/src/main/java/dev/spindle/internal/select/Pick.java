package dev.spindle.internal.select;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.FailWork;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The commit state of one instantiation of a {@code choose}: exactly one party decides it, for exactly one
 * alternative, or for none (cancellation, failure).
 */
public final class Pick extends Else implements Blocker {
    /*
     * Implementation overview
     * =======================
     * Overview
     *   Running a choose (any Alt run as a job that is not a primitive's fast path) creates one Pick. Each
     *   alternative that cannot commit at once leaves a waiter in some primitive's queue (a Waiter node
     *   naming this pick and the alternative's number, or a timer); all of them share the pick. Whoever
     *   moves the pick from AVAILABLE to PICKED owns the decision: a partner committing one of those
     *   waiters, the choosing fiber committing an alternative that was ready, the timer of an Alt.after,
     *   a canceller (removeWaiter), or the chooser failing (a guard threw). The losers' waiters stay in
     *   their queues, recognisably stale, and are dropped by later operations there (WaitQueue).
     *   The pick is also the fiber's Blocker while it waits, so cancellation and negative acknowledgement
     *   are one mechanism: cancelling picks "no alternative", which fires every nack.
     *
     * State and transitions (state)
     *   name      | value | meaning
     *   AVAILABLE |   0   | undecided
     *   CLAIMED   |   1   | held by one party for a few instructions (a lock state): to pick it, or to
     *             |       | push a listener
     *   PICKED    |   2   | decided; index says for which alternative (NO_ALTERNATIVE: cancelled or failed)
     *
     *   AVAILABLE --CAS--> CLAIMED --release--> PICKED        (terminal)
     *                         \------release--> AVAILABLE     (listener pushed, or a two-pick commit
     *                                                           found its partner's pick taken)
     *
     *   Two-pick commits (a choosing fiber meets a waiter of another choose): claim our own pick first,
     *   then CAS the other AVAILABLE -> CLAIMED. If the other is PICKED the waiter is stale: release ours
     *   and skip it. If the other is CLAIMED, release ours, spin, retry. A party never waits while it holds
     *   a claim, so claims are held for a bounded few instructions and no cycle of waiting can form
     *   (a symmetric livelock needs two threads to retry in lockstep forever; Hopac accepts the same).
     *   A party may spin on a CLAIMED pick while holding one primitive's spin lock; no claim holder ever
     *   takes a primitive lock, so that cannot deadlock either. The one longer claim is a hold: a waiting
     *   socket read holds its pick across one non-blocking read (under the stream's read lock, which no
     *   one holds while claiming), so that a read that loses never touches the chooser's buffer.
     *
     * Handing over the resumption (phase)
     *   A partner may pick while the choosing fiber is still instantiating later alternatives (running a
     *   guard job, say), so the fiber is not yet waiting and must not run twice. The picker publishes the
     *   resumption (the committed branch's continuation with its value, or a failure work item) in
     *   handed and CASes phase INSTANTIATING -> HANDED; the chooser, when it runs out of alternatives or
     *   sees the pick taken, CASes INSTANTIATING -> BLOCKED. Exactly one CAS wins: if the picker's, the
     *   chooser runs the handed work itself; if the chooser's, the picker pushes the work.
     *   name          | meaning
     *   INSTANTIATING | the fiber is running the choose (registering alternatives)
     *   BLOCKED       | the fiber has returned to its worker and waits; the picker resumes it
     *   HANDED        | picked during instantiation; the resumption waits in handed for the fiber
     *
     * Nack ranges
     *   Alternatives are numbered in instantiation order across nested chooses; a withNack covers the
     *   numbers its inner alt used, [first, end). end is MAX_VALUE until the inner alt has been
     *   instantiated: a commit inside the range before that (the inner alt was ready at once) must not
     *   fire the nack, and MAX_VALUE covers it. end is written by the chooser without a claim; a picker
     *   that races with the write can only be committing an alternative numbered < first or within
     *   [first, end) (later ones are registered after the write, through a lock or CAS the picker passes),
     *   and for those the old and new value of end give the same answer. // benign race
     *
     * Memory ordering
     *   state: CAS (volatile) to claim, setRelease to release or pick; readers use volatile reads, so index
     *   and listeners, written while claimed, are visible to anyone who sees PICKED. listeners is read only
     *   by the picker, after its own CAS. handed is written before the phase CAS and read after the losing
     *   CAS (volatile), so the hand-over is ordered. A committed branch's Cont.value is written before it is
     *   handed or pushed.
     *
     * INV: state == PICKED is final; exactly one party performs the AVAILABLE/CLAIMED -> PICKED step and that
     *      party alone fires the listeners and resumes the fiber (or the fiber continues itself).
     * INV: phase leaves INSTANTIATING at most once.
     *
     * References
     *   Hopac's Pick (Selective/Pick.cs): the three-state pick and nack ranges; rewritten here with an
     *   explicit hand-over so that a fiber never runs twice, and with cancellation as a pick.
     */
    /** What {@link #commit} found. */
    public enum Commit {
        /** Both picks (or the one there was) are now decided for the given alternatives. */
        COMMITTED,
        /** The other pick was already taken: its waiter is stale; skip it. */
        STALE,
        /** Our own pick was already taken: stop instantiating. */
        SELF_PICKED
    }

    // state: values of the field state (the claim protocol); a family of its own, never returned
    private static final int STATE_AVAILABLE = 0;
    private static final int STATE_CLAIMED = 1;
    private static final int STATE_PICKED = 2;

    // phase: values of the field phase (the hand-over); a family of its own, never returned
    private static final int PHASE_INSTANTIATING = 0;
    private static final int PHASE_BLOCKED = 1;
    private static final int PHASE_HANDED = 2;

    /** The committed alternative number when no alternative was committed (cancelled or failed). */
    public static final int NO_ALTERNATIVE = -1;

    /** Spins on a claimed pick before yielding the processor to its (possibly descheduled) holder. */
    private static final int SPINS_BEFORE_YIELD = 64;

    /** A STATE_ value. CAS / setRelease; volatile reads. */
    private volatile int state;
    /** The committed alternative (or NO_ALTERNATIVE). Written while claimed, before the STATE_PICKED release. */
    private int index = NO_ALTERNATIVE;
    /** Listeners, newest first. Pushed while claimed; read-only once STATE_PICKED; read by the picker. */
    private PickListener listeners;
    /** A PHASE_ value. CAS by the chooser and the picker. */
    private volatile int phase;
    /** The resumption a picker hands to the still-instantiating chooser. Written before the phase CAS. */
    private Work handed;
    /** The continuation of the whole choose: receives cancellation and failures. */
    private final Cont<?> k;
    /** The choosing fiber. */
    private final FiberBase<?> fiber;
    /** The alternative being run, for {@link #describe} (fiber dumps, deadlock reports). */
    private final Object root;

    private Pick(Cont<?> k, FiberBase<?> fiber, Object root) {
        super(null);
        this.k = k;
        this.fiber = fiber;
        this.root = root;
    }

    /**
     * Starts a choose of {@code root} for continuation {@code k}: the new pick, or null when the fiber is
     * being cancelled (then {@code k} has already been failed with the cancel signal).
     */
    public static Pick begin(Worker w, Cont<?> k, Object root) {
        FiberBase<?> f = k.fiber();
        if (f.cancelPending()) {
            Trampoline.fail(w, k, CancelSignal.INSTANCE);
            return null;
        }
        Pick pk = new Pick(k, f, root);
        if (k == f) {
            // The fiber is its own continuation, so a picker stores the chosen value in the fiber's value slot,
            // where the fiber also keeps its blocker: it records the pick before any alternative can be
            // picked, so that it never overwrites that value (instantiated() announces it; for every other
            // k it does both).
            f.recordBlocker(pk);
        }
        return pk;
    }

    // ---------------------------------------------------------------- queries

    /** The choosing fiber. */
    public FiberBase<?> fiber() {
        return fiber;
    }

    /** Whether the pick is decided (volatile read). */
    public boolean isPicked() {
        return state == STATE_PICKED;
    }

    // ---------------------------------------------------------------- committing

    /**
     * Commits alternative {@code ownIndex} of {@code own} together with the waiter numbered
     * {@code otherIndex} of {@code other}, atomically. Either may be null: a plain operation has no pick,
     * and a waiter of a plain operation is owned by whoever holds its primitive's lock.
     *
     * @return {@link Commit#COMMITTED}; {@link Commit#STALE} when {@code other} was taken (skip that waiter);
     *     or {@link Commit#SELF_PICKED} when {@code own} was taken (stop instantiating)
     */
    public static Commit commit(Pick own, int ownIndex, Pick other, int otherIndex) {
        assert own == null || own != other : "a choose cannot commit with itself";
        int spins = 0;
        for (;;) {
            if (own != null && !own.claim()) {
                return Commit.SELF_PICKED;
            }
            if (other == null) {
                if (own != null) {
                    own.pickClaimed(ownIndex);
                }
                return Commit.COMMITTED;
            }
            int s = other.state;
            if (s == STATE_AVAILABLE && STATE.compareAndSet(other, STATE_AVAILABLE, STATE_CLAIMED)) {
                other.pickClaimed(otherIndex);
                if (own != null) {
                    own.pickClaimed(ownIndex);
                }
                return Commit.COMMITTED;
            }
            if (own != null) {
                own.unclaim(); // never wait while holding a claim
            }
            if (s == STATE_PICKED) {
                return Commit.STALE;
            }
            spins = backOff(spins); // STATE_CLAIMED, or STATE_AVAILABLE and lost the CAS: look again
        }
    }

    /** Commits alternative {@code i} of this pick alone; true when it did, false when already picked. */
    public boolean commitSelf(int i) {
        if (!claim()) {
            return false;
        }
        pickClaimed(i);
        return true;
    }

    /**
     * Holds this pick while the caller tries alternative {@code i} outside any lock (an undoable socket
     * operation that writes into the user's buffer): nobody else can decide the pick meanwhile, so the
     * chooser cannot be resumed and see that buffer half written. Returns false when already picked. The
     * holder must not wait: it ends the hold at once with {@link #pickHeld} or {@link #releaseHeld}.
     */
    public boolean hold() {
        return claim();
    }

    /** Ends a {@link #hold} by committing alternative {@code i}. */
    public void pickHeld(int i) {
        pickClaimed(i);
    }

    /** Ends a {@link #hold} without deciding the pick. */
    public void releaseHeld() {
        unclaim();
    }

    /**
     * Adds {@code l} unless the pick is already decided. Returns false when decided: the caller must not
     * expect {@code l} to fire and should stop instantiating.
     */
    public boolean addListener(PickListener l) {
        if (!claim()) {
            return false;
        }
        l.next = listeners;
        listeners = l;
        unclaim();
        return true;
    }

    /** Fires the listeners that lost. Called once, by the party that picked, after picking. */
    public void fireListeners(Worker w) {
        int i = index;
        for (PickListener l = listeners; l != null; l = l.next) {
            if (l.lostTo(i)) {
                l.fire(w);
            }
        }
    }

    // ---------------------------------------------------------------- resuming the chooser

    /**
     * Resumes the chooser with {@code resumption} (a committed branch's continuation whose value is set, or
     * a failure item): pushes it when the fiber waits, else hands it over. Called by the picker only; {@code w}
     * is the picker's worker, or null when the picker is an ordinary thread.
     */
    public void resume(Worker w, Work resumption) {
        handed = resumption;
        if (!PHASE.compareAndSet(this, PHASE_INSTANTIATING, PHASE_HANDED)) {
            handed = null;
            Waiter.wake(w, fiber, resumption);
        }
    }

    /** Every alternative is registered. */
    @Override
    public void tryElse(Worker w, int i) {
        instantiated(w);
    }

    /**
     * Ends instantiation: the fiber waits for a picker, or, if it was picked meanwhile, runs the
     * resumption it was handed. Called once, by the chooser.
     */
    public void instantiated(Worker w) {
        FiberBase<?> f = fiber;
        if (k == f) {
            f.announceBlocked(this);
        } else {
            f.blockOn(this);
        }
        if (PHASE.compareAndSet(this, PHASE_INSTANTIATING, PHASE_BLOCKED)) {
            f.checkCancelWhileBlocked(w, this);
        } else {
            Work h = handed;
            handed = null;
            w.push(h);
        }
    }

    /**
     * The chooser failed while instantiating (a guard threw or failed, or was cancelled): decide for no
     * alternative, fire every nack and fail the choose. If a partner committed first, its value wins and
     * {@code e} is reported as uncaught (unless it is cancellation, which the fiber will still observe).
     */
    public void fail(Worker w, Throwable e) {
        if (claim()) {
            pickClaimed(NO_ALTERNATIVE);
            fireListeners(w);
            Trampoline.fail(w, k, e);
        } else {
            if (!CancelSignal.is(e)) {
                w.engine().reportUncaught(e);
            }
            instantiated(w);
        }
    }

    // ---------------------------------------------------------------- cancellation (Blocker)

    /**
     * Cancellation of the choosing fiber: decides the pick for no alternative and gives back the
     * continuation to fail with the cancel signal (it fires the nacks on the canceller's worker first).
     * Returns null when the pick was already decided, when the choose runs inside an uncancelable region
     * (a pick serves one choose, so the mask read here is the one it was made under: see
     * {@link Blocker#removeWaiter}), or when the fiber is still instantiating: then the fiber itself picks
     * up the cancellation.
     */
    @Override
    public Cont<?> removeWaiter(FiberBase<?> s) {
        if (s != fiber || !s.cancelPending() || !claim()) {
            return null;
        }
        pickClaimed(NO_ALTERNATIVE);
        CancelCont c = new CancelCont(this);
        handed = new FailWork(c, CancelSignal.INSTANCE);
        if (PHASE.compareAndSet(this, PHASE_INSTANTIATING, PHASE_HANDED)) {
            return null;
        }
        handed = null;
        return c;
    }

    @Override
    public String describe() {
        return root.toString();
    }

    // ---------------------------------------------------------------- claim (a tiny lock)

    /** Claims this pick, spinning while another party holds it; false when it is already picked. */
    private boolean claim() {
        int spins = 0;
        for (;;) {
            int s = state;
            if (s == STATE_AVAILABLE) {
                if (STATE.compareAndSet(this, STATE_AVAILABLE, STATE_CLAIMED)) {
                    return true;
                }
            } else if (s == STATE_PICKED) {
                return false;
            } else {
                spins = backOff(spins);
            }
        }
    }

    private void unclaim() {
        STATE.setRelease(this, STATE_AVAILABLE);
    }

    private void pickClaimed(int i) {
        index = i;
        STATE.setRelease(this, STATE_PICKED);
    }

    private static int backOff(int spins) {
        if (spins < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield(); // the holder was descheduled: give it the core
        }
        return spins + 1;
    }

    @Override
    public String toString() {
        int s = state;
        String st = s == STATE_AVAILABLE ? "available" : s == STATE_CLAIMED ? "claimed" : index == NO_ALTERNATIVE ? "picked none"
                : "picked #" + index;
        return "Pick[" + st + ", " + (phase == PHASE_INSTANTIATING ? "instantiating" : phase == PHASE_BLOCKED ? "blocked"
                : "handed") + "]";
    }

    /** What cancellation resumes: fires the nacks, then fails the choose's continuation. */
    private static final class CancelCont extends Cont<Object> {
        private final Pick pick;

        CancelCont(Pick pick) {
            super(pick.fiber);
            this.pick = pick;
        }

        @Override
        public void doCont(Worker w, Object ignored) {
            doHandle(w, CancelSignal.INSTANCE);
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            pick.fireListeners(w);
            Trampoline.fail(w, pick.k, e);
        }
    }

    private static final VarHandle STATE;
    private static final VarHandle PHASE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(Pick.class, "state", int.class);
            PHASE = l.findVarHandle(Pick.class, "phase", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
