package dev.spindle;

import dev.spindle.internal.run.Blocker;
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

/**
 * A bounded asynchronous queue (Hopac's {@code BoundedMb}): {@link #send} waits while the mailbox holds
 * {@link #capacity()} messages, {@link #take} waits while it holds none. Both are alternatives, so either
 * can be offered in {@link Alt#choose} with timeouts and other operations. Messages are taken in the order
 * they were sent; waiting senders and waiting takers are each served in arrival order.
 *
 * <pre>{@code
 * BoundedMailbox<String> queue = new BoundedMailbox<>(2, "work");
 * Job<Void> produce = queue.send("a").then(queue.send("b")).then(queue.send("c")); // waits at "c"
 * Job<String> consume = queue.take();                                               // "a", frees a place
 * Job<Boolean> offered = Alt.choose(queue.send("d").wrap(v -> true),
 *         Alt.after(Duration.ofMillis(10)).wrap(v -> false));                   // false if still full
 * }</pre>
 *
 * <p>Messages may be null. A send or take that loses a choose, or whose fiber is cancelled while it waits,
 * has no effect: no message is added, none is taken.
 *
 * @implNote Messages sit in a ring buffer of exactly {@code capacity} places. A blocked send waits as a node
 *     that carries its message; when a take frees a place it moves the oldest waiting sender's message into
 *     the buffer under the same lock, so a place is never taken by a newcomer ahead of a waiting sender.
 * @param <A> the type of the messages
 */
public final class BoundedMailbox<A> {
    /*
     * Implementation overview
     * =======================
     * State (all under lock): buffer[capacity] (ring, head, count), takers (waiting takes), senders
     * (waiting sends, each a Waiter carrying its message).
     *   INV: count > 0 implies no taker that can still be committed waits.
     *   INV: count < capacity implies no sender that can still be committed waits.
     *
     *   send, count == 0 and a taker can be committed: hand the message to it (the buffer stays empty)
     *   send, count < capacity:                        append
     *   send, count == capacity:                       wait in senders
     *   take, count > 0:  poll the oldest; then move the oldest committable sender's message into the
     *                     freed place and resume that sender
     *   take, count == 0: wait in takers
     *
     * In a choose, the ready case commits this alternative (commitSelf) before it touches the buffer, in the
     * same critical section, so a losing alternative takes and adds nothing. Committing the partner waiter
     * afterwards (pollCommitted) cannot undo ours: with the buffer as fallback, the operation completes
     * whether or not a partner is found. A partner of the same choose is already decided and is skipped.
     */

    /** Guards every field below. */
    private int lock;
    /** Ring buffer of messages; its length is the capacity. Guarded by lock. */
    private final Object[] messages;
    /** Index of the oldest message. Guarded by lock. */
    private int head;
    /** Number of messages. Guarded by lock. */
    private int count;
    /** Waiting takes. Guarded by lock. */
    private final WaitQueue takers = new WaitQueue();
    /** Waiting sends (Waiters carrying their message). Guarded by lock. */
    private final WaitQueue senders = new WaitQueue();
    /** Optional name. Immutable. */
    private final String name;
    private final Take take = new Take();
    private final SendersBlocker sendersBlocker = new SendersBlocker();

    /**
     * An empty, unnamed mailbox that holds at most {@code capacity} messages.
     *
     * @param capacity the most messages it holds, at least 1
     * @throws IllegalArgumentException if {@code capacity < 1}
     */
    public BoundedMailbox(int capacity) {
        this(capacity, null);
    }

    /**
     * An empty mailbox that holds at most {@code capacity} messages, named {@code name} (for toString and
     * deadlock reports); null for none.
     *
     * @param capacity the most messages it holds, at least 1
     * @param name the name, or null
     * @throws IllegalArgumentException if {@code capacity < 1}
     */
    public BoundedMailbox(int capacity, String name) {
        if (capacity < 1) {
            throw new IllegalArgumentException("BoundedMailbox capacity must be at least 1, was " + capacity);
        }
        this.messages = new Object[capacity];
        this.name = name;
    }

    // ---------------------------------------------------------------- public API

    /**
     * An alternative that adds {@code message} (may be null), or hands it to a waiting taker; waits while the
     * mailbox is full.
     *
     * @param message the message
     * @return the send, ready when the message is in the mailbox or handed to a taker
     */
    public Alt<Void> send(A message) {
        return new Send(message);
    }

    /**
     * An alternative that takes the oldest message; waits while there is none.
     *
     * @return the take, giving the message
     */
    public Alt<A> take() {
        return take;
    }

    /**
     * The most messages the mailbox holds.
     *
     * @return the capacity given at construction
     */
    public int capacity() {
        return messages.length;
    }

    /**
     * The number of messages held now (a snapshot, for tests and monitoring).
     *
     * @return the messages in the mailbox, from 0 to the capacity
     */
    public int size() {
        lock();
        int n = count;
        unlock();
        return n;
    }

    /** Sends waiting that can still be committed, taking the lock (for tests). */
    int waitingSenders() {
        lock();
        int n = senders.live();
        unlock();
        return n;
    }

    /** Takes waiting that can still be committed, taking the lock (for tests). */
    int waitingTakers() {
        lock();
        int n = takers.live();
        unlock();
        return n;
    }

    @Override
    public String toString() {
        // benign race: count read without the lock, for diagnostics only
        return "BoundedMailbox[" + (name != null ? name : "@" + Integer.toHexString(System.identityHashCode(this)))
                + ", " + count + "/" + messages.length + " messages]";
    }

    // ---------------------------------------------------------------- internal (caller holds lock)

    private void appendLocked(Object m) {
        messages[(head + count) % messages.length] = m;
        count++;
    }

    @SuppressWarnings("unchecked")
    private A pollLocked() {
        A m = (A) messages[head];
        messages[head] = null;
        head = (head + 1) % messages.length;
        count--;
        return m;
    }

    /**
     * After a poll: refills the freed place from the oldest sender that can still be committed; returns that
     * sender (to resume after unlocking), or null.
     */
    private Work refillLocked() {
        Work s = senders.pollCommitted();
        if (s != null) {
            appendLocked(((Waiter<?>) s).value);
        }
        return s;
    }

    /** Unlinks the plain operation of {@code fiber} from {@code queue} and returns its continuation. */
    private Cont<?> removePlainWaiter(WaitQueue queue, FiberBase<?> fiber) {
        lock();
        Work e = queue.removePlainOf(fiber);
        unlock();
        return e == null ? null : Waiter.contOf(e);
    }

    // ---------------------------------------------------------------- the operations

    /** {@code send(x)}. */
    private final class Send extends Alt<Void> {
        private final A message;

        Send(A message) {
            this.message = message;
        }

        @Override
        void doJob(Worker w, Cont<Void> k) {
            FiberBase<?> self = k.fiber();
            if (self.cancelPending()) {
                Trampoline.failCancelled(w, k);
                return;
            }
            BoundedMailbox.this.lock();
            if (count < messages.length) {
                Work t = addLocked();
                BoundedMailbox.this.unlock();
                if (t != null) {
                    Waiter.release(w, t, message);
                }
                Trampoline.succeed(w, k, null);
                return;
            }
            Waiter<A> entry = new Waiter<>(k, null, 0, message);
            senders.block(self, sendersBlocker, entry);
            BoundedMailbox.this.unlock();
            senders.blocked(w, self, sendersBlocker);
            ContinuationBody.helpWhileWaiting(w, entry);
        }

        @Override
        void tryAlt(Worker w, int i, Cont<Void> k, Else e) {
            Pick pk = e.pick;
            BoundedMailbox.this.lock();
            if (count < messages.length) {
                if (!pk.commitSelf(i)) {
                    BoundedMailbox.this.unlock(); // another alternative won meanwhile: add nothing
                    pk.instantiated(w);
                    return;
                }
                Work t = addLocked();
                BoundedMailbox.this.unlock();
                pk.fireListeners(w);
                if (t != null) {
                    Waiter.release(w, t, message);
                }
                Trampoline.succeed(w, k, null);
                return;
            }
            senders.add(new Waiter<>(k, pk, i, message));
            BoundedMailbox.this.unlock();
            e.tryElse(w, i + 1);
        }

        /** There is room: the taker to hand the message to (after unlocking), or null once it is appended. */
        private Work addLocked() {
            Work t = count == 0 ? takers.pollCommitted() : null;
            if (t == null) {
                appendLocked(message);
            }
            return t;
        }

        @Override
        public String toString() {
            return "send to " + BoundedMailbox.this;
        }
    }

    /**
     * {@code take()}; also the {@link Blocker} of this mailbox's plain takers (it exists once per mailbox,
     * and keeps the internal interface out of the public type).
     */
    private final class Take extends Alt<A> implements Blocker {
        @Override
        public Cont<?> removeWaiter(FiberBase<?> fiber) {
            return removePlainWaiter(takers, fiber);
        }

        @Override
        public String describe() {
            return BoundedMailbox.this.toString();
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            FiberBase<?> self = k.fiber();
            if (self.cancelPending()) {
                Trampoline.failCancelled(w, k);
                return;
            }
            BoundedMailbox.this.lock();
            if (count > 0) {
                A m = pollLocked();
                Work s = refillLocked();
                BoundedMailbox.this.unlock();
                if (s != null) {
                    Waiter.release(w, s, null);
                }
                Trampoline.succeed(w, k, m);
                return;
            }
            takers.block(self, take, k);
            BoundedMailbox.this.unlock();
            takers.blocked(w, self, take);
            ContinuationBody.helpWhileWaiting(w, k);
        }

        @Override
        void tryAlt(Worker w, int i, Cont<A> k, Else e) {
            Pick pk = e.pick;
            BoundedMailbox.this.lock();
            if (count > 0) {
                if (!pk.commitSelf(i)) {
                    BoundedMailbox.this.unlock(); // another alternative won meanwhile: take nothing
                    pk.instantiated(w);
                    return;
                }
                A m = pollLocked();
                Work s = refillLocked();
                BoundedMailbox.this.unlock();
                pk.fireListeners(w);
                if (s != null) {
                    Waiter.release(w, s, null);
                }
                Trampoline.succeed(w, k, m);
                return;
            }
            takers.add(new Waiter<A>(k, pk, i, null));
            BoundedMailbox.this.unlock();
            e.tryElse(w, i + 1);
        }

        @Override
        public String toString() {
            return "take from " + BoundedMailbox.this;
        }
    }

    /** The {@link Blocker} of this mailbox's plain senders. */
    private final class SendersBlocker implements Blocker {
        @Override
        public Cont<?> removeWaiter(FiberBase<?> fiber) {
            return removePlainWaiter(senders, fiber);
        }

        @Override
        public String describe() {
            return BoundedMailbox.this.toString();
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

    private static final VarHandle LOCK = SpinLock.handle(MethodHandles.lookup(), BoundedMailbox.class, "lock");
}
