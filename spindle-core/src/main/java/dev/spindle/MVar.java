package dev.spindle;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.SpinLock;
import dev.spindle.internal.run.FiberBase;
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
import java.util.function.Function;

/**
 * A mutable variable that is either empty or full (Haskell's and Hopac's {@code MVar}): {@link #take}
 * empties it, {@link #fill} fills it, {@link #read} looks without emptying. Takes and reads of an empty
 * MVar wait; filling a full one is an error. Used as a lock around a value, {@link #modify} takes, applies
 * a function and fills back in one step that cannot be cancelled half-way.
 *
 * <pre>{@code
 * MVar<Integer> counter = MVar.of(0);
 * Job<Integer> next = counter.modify(n -> n + 1);        // 1, 2, 3, ... whoever runs it
 * Job<Integer> peek = counter.read();
 * }</pre>
 *
 * <p>A fill first gives the value to every waiting reader, then to the oldest waiting taker if there is
 * one (the MVar stays empty), else the MVar becomes full. The value may be null.
 *
 * @implNote A blocked plain take or read queues its own continuation; resuming allocates nothing.
 *     The lock covers a few instructions.
 * @param <A> the type of the value
 */
public final class MVar<A> {
    /** Guards every field below. */
    private int lock;
    /** Whether a value is held. Guarded by lock. */
    private boolean full;
    /** The value when full. Guarded by lock. */
    private A value;
    /** Waiting takes. Guarded by lock; empty while full (INV). */
    private final WaitQueue takers = new WaitQueue();
    /** Waiting reads. Guarded by lock; empty while full (INV). */
    private final WaitQueue readers = new WaitQueue();
    /** Optional name. Immutable. */
    private final String name;
    private final Take take = new Take();
    private final Read read = new Read();

    /** An empty, unnamed MVar. */
    public MVar() {
        this(null);
    }

    /**
     * An empty MVar named {@code name} (for toString and error messages); null for none.
     *
     * @param name the MVar's name, or null
     */
    public MVar(String name) {
        this.name = name;
    }

    /**
     * {@return a full, unnamed MVar holding {@code value}}
     *
     * @param <A> the type of the value
     * @param value the value it holds (may be null)
     */
    public static <A> MVar<A> of(A value) {
        MVar<A> m = new MVar<>();
        m.lock(); // publishes the initial state to whoever takes the lock next
        m.full = true;
        m.value = value;
        m.unlock();
        return m;
    }

    // ---------------------------------------------------------------- public API

    /**
     * {@return a job that fills this MVar with {@code value} (may be null), or hands it straight to waiting
     * readers and a taker} Fails with {@link IllegalStateException} if the MVar is full.
     *
     * @param value the value to fill in
     */
    public Job<Void> fill(A value) {
        return new Fill(value);
    }

    /** {@return an alternative that takes the value, leaving the MVar empty; waits while it is empty} */
    public Alt<A> take() {
        return take;
    }

    /** {@return an alternative that gives the value without taking it; waits while the MVar is empty} */
    public Alt<A> read() {
        return read;
    }

    /**
     * {@return a job that takes the value, fills back {@code f}'s result and gives that result} No
     * cancellation point separates the take from the fill; if {@code f} throws, the old value is filled back
     * and the job fails with the exception.
     *
     * @param f makes the new value from the old one
     */
    public Job<A> modify(Function<? super A, ? extends A> f) {
        return new Modify(Objects.requireNonNull(f, "f"));
    }

    // ---------------------------------------------------------------- internal

    /** Fills with {@code x} on worker {@code w}; false (and no change) when already full. */
    private boolean fillNow(Worker w, A x) {
        lock();
        if (full) {
            unlock();
            return false;
        }
        Work waitingReaders = readers.drain();
        Work taker = matchTakerLocked();
        if (taker == null) {
            full = true;
            value = x;
        }
        unlock();
        // Readers see the value as of the fill, whatever happens to the MVar next (linearised at the fill).
        while (waitingReaders != null) {
            Work e = waitingReaders;
            waitingReaders = e.queueLink();
            e.setQueueLink(null);
            if (Waiter.commit(e)) {
                Waiter.release(w, e, x);
            } // else that choose went another way
        }
        if (taker != null) {
            Waiter.release(w, taker, x);
        }
        return true;
    }

    /** Commits and unlinks the oldest taker that can still take; null when none. Caller holds lock. */
    private Work matchTakerLocked() {
        return takers.pollCommitted();
    }

    private IllegalStateException alreadyFull() {
        return new IllegalStateException(this + " is already full; take it before filling it again");
    }

    /** Unlinks the plain take or read of {@code fiber} and returns it. */
    private Cont<?> removePlainWaiter(FiberBase<?> fiber) {
        lock();
        Work e = takers.removePlainOf(fiber);
        if (e == null) {
            e = readers.removePlainOf(fiber);
        }
        unlock();
        return e == null ? null : Waiter.contOf(e);
    }

    @Override
    public String toString() {
        return "MVar[" + (name != null ? name : "@" + Integer.toHexString(System.identityHashCode(this))) + ", "
                + (full ? "full" : "empty") + "]"; // benign race: diagnostics only
    }

    // ---------------------------------------------------------------- the operations

    /**
     * {@code take()} ({@code emptying}) and {@code read()}: one implementation. The take object is also the
     * {@link Blocker} of this MVar's plain waiters (it keeps the internal interface out of the public type).
     */
    private abstract class Get extends Alt<A> implements Blocker {
        @Override
        public Cont<?> removeWaiter(FiberBase<?> fiber) {
            return removePlainWaiter(fiber);
        }

        @Override
        public String describe() {
            return MVar.this.toString();
        }

        /** Whether this get empties the MVar. */
        abstract boolean emptying();

        @Override
        void doJob(Worker w, Cont<A> k) {
            FiberBase<?> self = k.fiber();
            if (self.cancelPending()) {
                Trampoline.fail(w, k, CancelSignal.INSTANCE);
                return;
            }
            MVar.this.lock();
            if (full) {
                A x = getLocked();
                MVar.this.unlock();
                Trampoline.succeed(w, k, x);
                return;
            }
            WaitQueue queue = emptying() ? takers : readers;
            queue.block(self, take, k);
            MVar.this.unlock();
            queue.blocked(w, self, take);
            ContinuationBody.helpWhileWaiting(w, k);
        }

        @Override
        void tryAlt(Worker w, int i, Cont<A> k, Else e) {
            Pick pk = e.pick;
            MVar.this.lock();
            if (full) {
                if (!pk.commitSelf(i)) {
                    MVar.this.unlock();
                    pk.instantiated(w);
                    return;
                }
                A x = getLocked();
                MVar.this.unlock();
                pk.fireListeners(w);
                Trampoline.succeed(w, k, x);
                return;
            }
            (emptying() ? takers : readers).add(new Waiter<A>(k, pk, i, null));
            MVar.this.unlock();
            e.tryElse(w, i + 1);
        }

        private A getLocked() {
            A x = value;
            if (emptying()) {
                full = false;
                value = null;
            }
            return x;
        }
    }

    private final class Take extends Get {
        @Override
        boolean emptying() {
            return true;
        }

        @Override
        public String toString() {
            return "take of " + MVar.this;
        }
    }

    private final class Read extends Get {
        @Override
        boolean emptying() {
            return false;
        }

        @Override
        public String toString() {
            return "read of " + MVar.this;
        }
    }

    /** {@code fill(x)}. */
    private final class Fill extends Job<Void> {
        private final A x;

        Fill(A x) {
            this.x = x;
        }

        @Override
        void doJob(Worker w, Cont<Void> k) {
            if (fillNow(w, x)) {
                Trampoline.succeed(w, k, null);
            } else {
                Trampoline.fail(w, k, alreadyFull());
            }
        }
    }

    /** {@code modify(f)}: a plain take whose continuation fills back at once. */
    private final class Modify extends Job<A> {
        private final Function<? super A, ? extends A> f;

        Modify(Function<? super A, ? extends A> f) {
            this.f = f;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            take.doJob(w, new ModifyCont(f, k));
        }
    }

    /** Applies the function to the taken value and fills the result back; not a cancellation point. */
    private final class ModifyCont extends Cont<A> {
        private final Function<? super A, ? extends A> f;
        private final Cont<A> k;

        ModifyCont(Function<? super A, ? extends A> f, Cont<A> k) {
            super(k.fiber());
            this.f = f;
            this.k = k;
        }

        @Override
        public void doCont(Worker w, A old) {
            A next;
            try {
                next = f.apply(old);
            } catch (Throwable e) {
                if (!fillNow(w, old)) {
                    e.addSuppressed(alreadyFull());
                }
                Trampoline.fail(w, k, e);
                return;
            }
            if (fillNow(w, next)) {
                Trampoline.succeed(w, k, next);
            } else {
                Trampoline.fail(w, k, new IllegalStateException(MVar.this
                        + " was filled by someone else while modify held its value; the result was dropped"));
            }
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            Trampoline.fail(w, k, e);
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

    private static final VarHandle LOCK = SpinLock.handle(MethodHandles.lookup(), MVar.class, "lock");
}
