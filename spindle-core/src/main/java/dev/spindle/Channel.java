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

/**
 * A synchronous channel: {@link #give} and {@link #take} are alternatives that rendezvous, and every give
 * meets exactly one take. {@link #send} gives asynchronously: it never blocks its caller, and the value
 * waits in the channel, in order with blocked givers, until a taker comes.
 *
 * <pre>{@code
 * Channel<Integer> numbers = new Channel<>("numbers");
 * Job<Void> producer = numbers.give(1).then(numbers.give(2));
 * Job<Integer> consumer = numbers.take().flatMap(a -> numbers.take().map(b -> a + b));
 * int three = scheduler.run(producer.start().then(consumer));
 * }</pre>
 *
 * <p>Waiting givers and takers are served in arrival order. A fiber never rendezvous with itself: a choose
 * that offers both {@code give} and {@code take} on one channel waits for another fiber. Values may be
 * null. A fiber cancelled while waiting in {@code give} or {@code take} delivers nothing and consumes
 * nothing.
 *
 * @implNote {@code take()} returns one shared object; a blocked plain take queues its own continuation
 *     (no allocation), and so does a blocked give that is the first job of a step (its value rides in the
 *     step's continuation); any other blocked give, or a send, allocates one small node. Resuming a
 *     partner allocates nothing, and a give or take that meets its partner at once as the first job of a
 *     {@code flatMap}, {@code map} or {@code then} continues that step without the continuation object it
 *     would otherwise allocate. The lock is held for a queue scan that normally stops at the first entry.
 * @param <A> the type of the values
 */
public final class Channel<A> {
    /*
     * Implementation overview
     * =======================
     * Overview
     *   Two FIFO queues (WaitQueue) under one spin lock: takers (plain blocked takes as their own Cont,
     *   choose alternatives as Waiter nodes) and givers (a blocked give that is a step's first job as the
     *   step's fresh Cont, the value in its resume slot; Waiter nodes carrying the value for any other
     *   blocked give, choose alternatives, and sends, which have no continuation). An operation scans the
     *   opposite queue from the oldest entry for a partner it can commit with; if none, it enqueues itself.
     *   A commit happens under the lock (so no one else can take that entry): plain entries are ours once
     *   we hold the lock; an entry of a choose needs its Pick, and if we are a choose too, both picks at once
     *   (Pick.commit). Resuming the partner and continuing happen after the unlock.
     *
     * State and transitions (per entry)
     *   entry            | in queue   | commit needs           | resumed by
     *   plain take       | takers     | the lock               | k.value = x; push k
     *   plain give       | givers     | the lock               | read its value; k.value = null; push k
     *   send             | givers     | the lock               | nobody
     *   choose waiter    | either     | the lock + its pick    | its pick's hand-over (Pick.resume)
     *   Entries whose pick was decided elsewhere are stale: skipped and unlinked by scans and appends.
     *   Entries of the scanning fiber itself are skipped (never rendezvous with yourself).
     *   INV: after an operation has enqueued itself, the opposite queue holds no entry it could have
     *        committed with: nothing is left that two waiting parties could have done together.
     *
     * Cancellation
     *   A plain waiter's blocker is the channel's one Take object (a private Blocker, so the internal
     *   interface stays out of the public type): removeWaiter unlinks the fiber's plain entry under the
     *   lock, so it is exclusive with a commit (whoever unlinks the entry owns it). A choose waiter's
     *   blocker is its Pick; cancelling picks "none", which makes all its entries stale at once.
     *
     * Memory ordering
     *   Everything in the queues is guarded by the lock (acquire by CAS, release by store). A resumed
     *   continuation's value is written before it is pushed or handed over (see Pick).
     *
     * Style notes
     *   No lambdas or iterators: scans are counted loops over the circular list, holding the predecessor
     *   for O(1) unlinking.
     *
     * References
     *   CML channels (Reppy), Hopac's Ch; SynchronousQueue's single "transfer" path for both directions.
     */

    /** Optional name for toString and deadlock reports. Immutable. */
    private final String name;
    /** Guards takers and givers. */
    private int lock;
    /** Waiting takes. Guarded by lock. */
    private final WaitQueue takers = new WaitQueue();
    /** Waiting gives and sends. Guarded by lock. */
    private final WaitQueue givers = new WaitQueue();
    /** The one take alternative of this channel. */
    private final Take take = new Take();

    /** An unnamed channel. */
    public Channel() {
        this(null);
    }

    /**
     * A channel named {@code name} (shown by toString and in deadlock reports); null for none.
     *
     * @param name the channel's name, or null
     */
    public Channel(String name) {
        this.name = name;
    }

    // ---------------------------------------------------------------- public API

    /** {@return an alternative that takes a value from a giver (or a sent value)} Allocates nothing. */
    public Alt<A> take() {
        return take;
    }

    /**
     * {@return an alternative that gives {@code value} (may be null) to one taker}
     *
     * @param value the value to give
     */
    public Alt<Void> give(A value) {
        return new Give(value);
    }

    /**
     * {@return a job that gives {@code value} (may be null) asynchronously: it hands it to a waiting taker,
     * or leaves it queued behind earlier givers, and completes at once either way}
     *
     * @param value the value to send
     */
    public Job<Void> send(A value) {
        return new Send(value);
    }

    // ---------------------------------------------------------------- matching (caller holds lock)

    /**
     * Finds and commits the oldest giver that {@code self} (with pick {@code own}, alternative
     * {@code ownIndex}; own null for a plain take) can take from; unlinks it and returns it. Returns null
     * when there is none, or when {@code own} was decided meanwhile.
     */
    private Work matchGiverLocked(FiberBase<?> self, Pick own, int ownIndex) {
        WaitQueue q = givers;
        Work prev = q.tail();
        for (int n = q.size(); n > 0; n--) {
            Work g = prev.queueLink();
            Pick other = Waiter.pickOf(g);
            if (other != null && other.isPicked()) {
                q.removeAfter(prev); // stale
                continue;
            }
            if (Waiter.isOf(g, self)) {
                prev = g; // never rendezvous with yourself
                continue;
            }
            Pick.Commit r = Pick.commit(own, ownIndex, other, Waiter.indexOf(g));
            if (r == Pick.Commit.COMMITTED) {
                q.removeAfter(prev);
                return g;
            } else if (r == Pick.Commit.STALE) {
                q.removeAfter(prev);
            } else {
                return null; // SELF_PICKED
            }
        }
        return null;
    }

    /** {@link #matchGiverLocked}'s mirror image over the takers. */
    private Work matchTakerLocked(FiberBase<?> self, Pick own, int ownIndex) {
        WaitQueue q = takers;
        Work prev = q.tail();
        for (int n = q.size(); n > 0; n--) {
            Work t = prev.queueLink();
            Pick other = Waiter.pickOf(t);
            if (other != null && other.isPicked()) {
                q.removeAfter(prev);
                continue;
            }
            if (self != null && Waiter.isOf(t, self)) {
                prev = t;
                continue;
            }
            Pick.Commit r = Pick.commit(own, ownIndex, other, Waiter.indexOf(t));
            if (r == Pick.Commit.COMMITTED) {
                q.removeAfter(prev);
                return t;
            } else if (r == Pick.Commit.STALE) {
                q.removeAfter(prev);
            } else {
                return null;
            }
        }
        return null;
    }


    // ---------------------------------------------------------------- diagnostics

    /** Takers that can still be committed (stale alternatives excluded); for tests and fiber dumps. */
    int waitingTakers() {
        lock();
        int n = countLive(takers);
        unlock();
        return n;
    }

    /** Givers and sent values that can still be taken; for tests and fiber dumps. */
    int waitingGivers() {
        lock();
        int n = countLive(givers);
        unlock();
        return n;
    }

    /** Entries in the takers queue, stale ones included (they are dropped lazily); for tests. */
    int takerQueueLength() {
        lock();
        int n = takers.size();
        unlock();
        return n;
    }

    private static int countLive(WaitQueue q) {
        int live = 0;
        Work e = q.tail();
        for (int n = q.size(); n > 0; n--) {
            e = e.queueLink();
            if (!Waiter.isStale(e)) {
                live++;
            }
        }
        return live;
    }

    // ---------------------------------------------------------------- cancellation

    /** Unlinks the plain entry of {@code fiber} (a blocked take or give) and returns its continuation. */
    private Cont<?> removePlainWaiter(FiberBase<?> fiber) {
        lock();
        Work e = takers.removePlainOf(fiber);
        if (e == null) {
            e = givers.removePlainOf(fiber);
        }
        unlock();
        return e == null ? null : Waiter.contOf(e);
    }

    @Override
    public String toString() {
        // benign race: sizes read without the lock, for diagnostics only
        return "Channel[" + (name != null ? name : "@" + Integer.toHexString(System.identityHashCode(this)))
                + ", takers=" + takers.size() + ", givers=" + givers.size() + "]";
    }

    // ---------------------------------------------------------------- the operations

    /**
     * {@code take()}; also the {@link Blocker} of this channel's plain waiters (it exists once per channel,
     * and keeps the internal interface out of the public type).
     */
    private final class Take extends Alt<A> implements Blocker {
        @Override
        void doJob(Worker w, Cont<A> k) {
            doJobThroughNow(w, k);
        }

        @Override
        <B> Object doJobNow(Worker w, Sequence.Step<A, B> step, Cont<B> k) {
            FiberBase<?> self = k.fiber();
            if (self.cancelPending()) {
                Trampoline.fail(w, k, CancelSignal.INSTANCE);
                return LATER;
            }
            Channel.this.lock();
            Work g = matchGiverLocked(self, null, 0);
            if (g != null) {
                Channel.this.unlock();
                A value = Waiter.valueOf(g); // before the release, which clears a plain giver's slot
                Waiter.release(w, g, null);
                return value;
            }
            Cont<A> waiting = StepTail.contFor(step, k);
            takers.block(self, take, waiting);
            Channel.this.unlock();
            takers.blocked(w, self, take);
            ContinuationBody.helpWhileWaiting(w, waiting);
            return LATER;
        }

        @Override
        void tryAlt(Worker w, int i, Cont<A> k, Else e) {
            Pick pk = e.pick;
            Channel.this.lock();
            Work g = matchGiverLocked(pk.fiber(), pk, i);
            if (g != null) {
                Channel.this.unlock();
                A value = Waiter.valueOf(g);
                pk.fireListeners(w);
                Waiter.release(w, g, null);
                Trampoline.succeed(w, k, value);
                return;
            }
            if (pk.isPicked()) {
                Channel.this.unlock();
                pk.instantiated(w);
                return;
            }
            takers.add(new Waiter<A>(k, pk, i, null));
            Channel.this.unlock();
            e.tryElse(w, i + 1);
        }

        @Override
        public Cont<?> removeWaiter(FiberBase<?> fiber) {
            return removePlainWaiter(fiber);
        }

        @Override
        public String describe() {
            return Channel.this.toString();
        }

        @Override
        public String toString() {
            return "take from " + Channel.this;
        }
    }

    /** {@code give(x)}. */
    private final class Give extends Alt<Void> {
        private final A value;

        Give(A value) {
            this.value = value;
        }

        @Override
        void doJob(Worker w, Cont<Void> k) {
            doJobThroughNow(w, k);
        }

        @Override
        <B> Object doJobNow(Worker w, Sequence.Step<Void, B> step, Cont<B> k) {
            FiberBase<?> self = k.fiber();
            if (self.cancelPending()) {
                Trampoline.fail(w, k, CancelSignal.INSTANCE);
                return LATER;
            }
            Channel.this.lock();
            Work t = matchTakerLocked(self, null, 0);
            if (t != null) {
                Channel.this.unlock();
                Waiter.release(w, t, value);
                return null;
            }
            Work entry = waitingEntry(step, k);
            givers.block(self, take, entry);
            Channel.this.unlock();
            givers.blocked(w, self, take);
            ContinuationBody.helpWhileWaiting(w, entry);
            return LATER;
        }

        @Override
        void tryAlt(Worker w, int i, Cont<Void> k, Else e) {
            Pick pk = e.pick;
            Channel.this.lock();
            Work t = matchTakerLocked(pk.fiber(), pk, i);
            if (t != null) {
                Channel.this.unlock();
                pk.fireListeners(w);
                Waiter.release(w, t, value);
                Trampoline.succeed(w, k, null);
                return;
            }
            if (pk.isPicked()) {
                Channel.this.unlock();
                pk.instantiated(w);
                return;
            }
            givers.add(new Waiter<A>(k, pk, i, value));
            Channel.this.unlock();
            e.tryElse(w, i + 1);
        }

        /**
         * The entry of a give that must wait. A step's continuation is made here, so its resume-value slot
         * is free until the taker resumes it (with null): it carries the value and is queued itself, as a
         * blocked take is. Otherwise the continuation ({@code k}: the fiber itself, or one whose slot is
         * in use) is wrapped in a {@link Waiter} that carries the value.
         */
        private <B> Work waitingEntry(Sequence.Step<Void, B> step, Cont<B> k) {
            if (step == null) {
                return new Waiter<A>(k, null, 0, value);
            }
            Cont<Void> waiting = step.contAfter(k);
            Waiter.setValue(waiting, value);
            return waiting;
        }

        @Override
        public String toString() {
            return "give to " + Channel.this;
        }
    }

    /** {@code send(x)}: a give nobody waits for. */
    private final class Send extends Job<Void> {
        private final A value;

        Send(A value) {
            this.value = value;
        }

        @Override
        void doJob(Worker w, Cont<Void> k) {
            doJobThroughNow(w, k);
        }

        @Override
        <B> Object doJobNow(Worker w, Sequence.Step<Void, B> step, Cont<B> k) {
            Channel.this.lock();
            Work t = matchTakerLocked(null, null, 0);
            if (t != null) {
                Channel.this.unlock();
                Waiter.release(w, t, value);
            } else {
                givers.add(new Waiter<A>(null, null, 0, value));
                Channel.this.unlock();
            }
            return null;
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

    private static final VarHandle LOCK = SpinLock.handle(MethodHandles.lookup(), Channel.class, "lock");
}
