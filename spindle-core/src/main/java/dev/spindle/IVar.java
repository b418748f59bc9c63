package dev.spindle;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.SpinLock;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.StepTail;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.Else;
import dev.spindle.internal.select.Pick;
import dev.spindle.internal.select.WaitQueue;
import dev.spindle.internal.select.Waiter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A write-once variable: it starts empty, is filled once with a value (or a failure), and then every
 * {@link #read} gives that value at once. Reads before the fill wait.
 *
 * <pre>{@code
 * IVar<Config> config = new IVar<>("config");
 * Job<Void> loader = loadConfig().flatMap(config::fill);
 * Job<String> user = config.read().map(c -> c.get("user"));   // waits for the loader
 * }</pre>
 *
 * <p>A second {@link #fill} or {@link #fillFailure} fails with {@link IllegalStateException} naming this
 * IVar and leaves it unchanged; {@link #tryFill} reports the same condition as {@code false}. The value may
 * be null.
 *
 * @implNote A blocked plain read queues its own continuation and the fill resumes it by pushing that
 *     continuation: no allocation on either side. The lock is held for a few instructions: the fill
 *     detaches the whole reader list at once and resumes the readers after releasing it.
 * @param <A> the type of the value
 */
public final class IVar<A> {
    /*
     * Implementation overview
     * =======================
     * State and transitions
     *   name   | representation                  | meaning
     *   EMPTY  | state == EMPTY, result unused    | not filled; readers wait in the queue
     *   FULL   | state == FULL, result = value    | filled; reads complete at once
     *   FAILED | state == FAILED, result = error  | filled with a failure; reads fail at once
     *
     *   EMPTY --fill--> FULL        EMPTY --fillFailure--> FAILED        (under lock, once)
     *
     * Readers
     *   A plain read that finds the IVar empty queues its Cont itself; a read offered in a choose queues a
     *   Waiter (pick + alternative number). The fill takes the whole queue under the lock (O(1)), then,
     *   outside it, resumes each plain reader by writing Cont.value and pushing it, and commits each choose
     *   reader's pick first (skipping those decided elsewhere).
     *   Cancellation removes a plain reader under the lock (exclusive with the fill's detach); the
     *   blocker is the IVar's one Read object (a private Blocker). A choose reader's blocker is its pick.
     *
     * Memory ordering
     *   result is written before the release store of state; the fast path of read is one volatile read
     *   of state, so a reader that sees FULL sees the value (Hopac's double-checked read).
     *   INV: state changes at most once, and only under the lock.
     */
    private static final int EMPTY = 0;
    private static final int FULL = 1;
    private static final int FAILED = 2;

    /** EMPTY, FULL or FAILED. Written once under lock (release store); volatile reads without lock. */
    private volatile int state;
    /** The value (FULL) or Throwable (FAILED). Written under lock before state; read after state. */
    private Object result;
    /** Guards readers and the transition out of EMPTY. */
    private int lock;
    /** Waiting readers. Guarded by lock; empty once filled. */
    private final WaitQueue readers = new WaitQueue();
    /** Optional name. Immutable. */
    private final String name;
    /** The one read alternative of this IVar. */
    private final Read read = new Read();

    /** An empty, unnamed IVar. */
    public IVar() {
        this(null);
    }

    /**
     * An empty IVar named {@code name} (shown by toString and in error messages); null for none.
     *
     * @param name the IVar's name, or null
     */
    public IVar(String name) {
        this.name = name;
    }

    // ---------------------------------------------------------------- public API

    /**
     * {@return a job that fills this IVar with {@code value} (may be null) and resumes every waiting reader}
     * Fails with {@link IllegalStateException} if the IVar is already filled.
     *
     * @param value the value to fill in
     */
    public Job<Void> fill(A value) {
        return new Fill<>(this, FULL, value, false);
    }

    /**
     * {@return a job that fills this IVar with {@code value} if it is empty: true when it did, false otherwise}
     *
     * @param value the value to fill in (may be null)
     */
    public Job<Boolean> tryFill(A value) {
        return new Fill<>(this, FULL, value, true);
    }

    /**
     * {@return a job that fills this IVar with the failure {@code error}: every read, waiting or later, fails
     * with it} Fails with {@link IllegalStateException} if the IVar is already filled.
     *
     * @param error the failure every read gives
     * @throws NullPointerException if {@code error} is null
     */
    public Job<Void> fillFailure(Throwable error) {
        return new Fill<>(this, FAILED, Objects.requireNonNull(error, "error"), false);
    }

    /** {@return an alternative that gives the value once the IVar is filled (or fails with its failure)} */
    public Alt<A> read() {
        return read;
    }

    // ---------------------------------------------------------------- internal

    /** Whether the IVar has been filled (with a value or a failure). */
    boolean isFilled() {
        return state != EMPTY;
    }

    /** Fills with {@code value} if empty, resuming readers on {@code w}; true when this call filled it. */
    boolean fillNow(Worker w, A value) {
        return complete(w, FULL, value);
    }

    /** Fills with {@code error} if empty; true when this call filled it. */
    boolean failNow(Worker w, Throwable error) {
        return complete(w, FAILED, error);
    }

    private boolean complete(Worker w, int newState, Object r) {
        if (state != EMPTY) {
            return false;
        }
        lock();
        if (state != EMPTY) {
            unlock();
            return false;
        }
        result = r;
        // A release store: readers that find the lock free read state then result (acquire), and waiting
        // readers are handed over under the lock, so no StoreLoad fence is needed here.
        STATE.setRelease(this, newState);
        Work waiting = readers.drain();
        unlock();
        while (waiting != null) {
            Work e = waiting;
            waiting = e.queueLink();
            e.setQueueLink(null);
            resumeReader(w, e, newState, r);
        }
        return true;
    }

    private static void resumeReader(Worker w, Work e, int s, Object r) {
        if (!Waiter.commit(e)) {
            return; // that choose went another way
        }
        if (s == FULL) {
            Waiter.release(w, e, r);
        } else {
            Waiter.releaseFailed(w, e, (Throwable) r);
        }
    }

    /** The value of a filled IVar (state {@code s}), or {@link Job#LATER} having failed {@code k} with its failure. */
    private Object deliverNow(Worker w, Cont<?> k, int s) {
        if (s == FULL) {
            return result;
        }
        Trampoline.fail(w, k, (Throwable) result);
        return Job.LATER;
    }

    @SuppressWarnings("unchecked")
    private void deliver(Worker w, Cont<A> k, int s) {
        Object a = deliverNow(w, k, s);
        if (a != Job.LATER) {
            Trampoline.succeed(w, k, (A) a);
        }
    }

    /** Unlinks the plain reader of {@code fiber} and returns it. */
    private Cont<?> removePlainWaiter(FiberBase<?> fiber) {
        lock();
        Work e = readers.removePlainOf(fiber);
        unlock();
        return e == null ? null : Waiter.contOf(e);
    }

    @Override
    public String toString() {
        int s = state;
        return "IVar[" + (name != null ? name : "@" + Integer.toHexString(System.identityHashCode(this))) + ", "
                + (s == EMPTY ? "empty" : s == FULL ? "full" : "failed") + "]";
    }

    // ---------------------------------------------------------------- the operations

    /**
     * {@code read()}; also the {@link Blocker} of this IVar's plain readers (it exists once per IVar, and
     * keeps the internal interface out of the public type).
     */
    private final class Read extends Alt<A> implements Blocker {
        @Override
        public Cont<?> removeWaiter(FiberBase<?> fiber) {
            return removePlainWaiter(fiber);
        }

        @Override
        public String describe() {
            return IVar.this.toString();
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            doJobThroughNow(w, k);
        }

        @Override
        <B> Object doJobNow(Worker w, Sequence.Step<A, B> step, Cont<B> k) {
            int s = state;
            if (s != EMPTY) {
                return deliverNow(w, k, s);
            }
            FiberBase<?> self = k.fiber();
            if (self.cancelPending()) {
                Trampoline.fail(w, k, CancelSignal.INSTANCE);
                return LATER;
            }
            IVar.this.lock();
            s = state;
            if (s != EMPTY) {
                IVar.this.unlock();
                return deliverNow(w, k, s);
            }
            Cont<A> waiting = StepTail.contFor(step, k);
            readers.block(self, read, waiting);
            IVar.this.unlock();
            readers.blocked(w, self, read);
            ContinuationBody.helpWhileWaiting(w, waiting);
            return LATER;
        }

        @Override
        void tryAlt(Worker w, int i, Cont<A> k, Else e) {
            Pick pk = e.pick;
            int s = state;
            if (s == EMPTY) {
                IVar.this.lock();
                s = state;
                if (s == EMPTY) {
                    readers.add(new Waiter<A>(k, pk, i, null));
                    IVar.this.unlock();
                    e.tryElse(w, i + 1);
                    return;
                }
                IVar.this.unlock();
            }
            if (pk.commitSelf(i)) {
                pk.fireListeners(w);
                deliver(w, k, s);
            } else {
                pk.instantiated(w);
            }
        }

        @Override
        public String toString() {
            return "read of " + IVar.this;
        }
    }

    /** {@code fill}, {@code tryFill}, {@code fillFailure}. */
    private static final class Fill<A, R> extends Job<R> {
        private final IVar<A> ivar;
        private final int newState;
        private final Object result;
        /** tryFill: report "already full" as false instead of failing. */
        private final boolean tryOnly;

        Fill(IVar<A> ivar, int newState, Object result, boolean tryOnly) {
            this.ivar = ivar;
            this.newState = newState;
            this.result = result;
            this.tryOnly = tryOnly;
        }

        @Override
        void doJob(Worker w, Cont<R> k) {
            doJobThroughNow(w, k);
        }

        @Override
        <B> Object doJobNow(Worker w, Sequence.Step<R, B> step, Cont<B> k) {
            boolean filled = ivar.complete(w, newState, result);
            if (tryOnly) {
                return Boolean.valueOf(filled);
            } else if (filled) {
                return null;
            }
            Trampoline.fail(w, k, new IllegalStateException(ivar + " is already filled; an IVar is filled once"));
            return LATER;
        }
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

    private static final VarHandle LOCK = SpinLock.handle(MethodHandles.lookup(), IVar.class, "lock");
    private static final VarHandle STATE = SpinLock.handle(MethodHandles.lookup(), IVar.class, "state");
}
