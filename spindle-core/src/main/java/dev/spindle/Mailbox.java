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
 * An unbounded asynchronous queue (Hopac's {@code Mailbox}, an actor's inbox): {@link #send} never blocks,
 * {@link #take} waits while the mailbox is empty. Messages are taken in the order they were sent, and
 * waiting takers are served in arrival order.
 *
 * <pre>{@code
 * Mailbox<String> inbox = new Mailbox<>("log");
 * Job<Void> hello = inbox.send("hello").then(inbox.send("world"));   // completes at once
 * Job<String> line = inbox.take().map(String::toUpperCase);         // "HELLO", then "WORLD"
 * Job<String> orIdle = Alt.choose(inbox.take(), Alt.after(Duration.ofSeconds(1)).wrap(v -> "idle"));
 * }</pre>
 *
 * <p>Messages may be null. A fiber cancelled while waiting in {@code take} consumes nothing.
 * {@link BoundedMailbox} is the bounded variant, whose {@code send} waits while it is full.
 *
 * @implNote Messages sit in a growable ring buffer (no node per message); a blocked plain take queues its
 *     own continuation. The lock covers a few instructions.
 * @param <A> the type of the messages
 */
public final class Mailbox<A> {
    /** Initial capacity of the ring buffer (grows by doubling; a power of two). */
    private static final int INITIAL_CAPACITY = 8;

    /** Guards every field below. */
    private int lock;
    /** Ring buffer of messages. Guarded by lock. INV: capacity is a power of two. */
    private Object[] messages = new Object[INITIAL_CAPACITY];
    /** Index of the oldest message. Guarded by lock. */
    private int head;
    /** Number of messages. Guarded by lock. INV: count > 0 implies no taker that can still take waits. */
    private int count;
    /** Waiting takes. Guarded by lock. */
    private final WaitQueue takers = new WaitQueue();
    /** Optional name. Immutable. */
    private final String name;
    private final Take take = new Take();

    /** An empty, unnamed mailbox. */
    public Mailbox() {
        this(null);
    }

    /**
     * An empty mailbox named {@code name} (for toString and deadlock reports); null for none.
     *
     * @param name the mailbox's name, or null
     */
    public Mailbox(String name) {
        this.name = name;
    }

    // ---------------------------------------------------------------- public API

    /**
     * {@return a job that queues {@code message} (may be null), or hands it to a waiting taker; never blocks}
     *
     * @param message the message to send
     */
    public Job<Void> send(A message) {
        return new Send(message);
    }

    /** {@return an alternative that takes the oldest message; waits while there is none} */
    public Alt<A> take() {
        return take;
    }

    // ---------------------------------------------------------------- internal (caller holds lock)

    private void appendLocked(Object m) {
        Object[] buf = messages;
        if (count == buf.length) {
            buf = grow(buf);
        }
        buf[(head + count) & (buf.length - 1)] = m;
        count++;
    }

    private Object[] grow(Object[] buf) {
        Object[] bigger = new Object[buf.length * 2];
        for (int i = 0; i < count; i++) {
            bigger[i] = buf[(head + i) & (buf.length - 1)];
        }
        head = 0;
        messages = bigger;
        return bigger;
    }

    @SuppressWarnings("unchecked")
    private A pollLocked() {
        Object[] buf = messages;
        A m = (A) buf[head];
        buf[head] = null;
        head = (head + 1) & (buf.length - 1);
        count--;
        return m;
    }

    /** Commits and unlinks the oldest taker that can still take; null when none. */
    private Work matchTakerLocked() {
        return takers.pollCommitted();
    }

    /** Unlinks the plain take of {@code fiber} and returns it. */
    private Cont<?> removePlainWaiter(FiberBase<?> fiber) {
        lock();
        Work e = takers.removePlainOf(fiber);
        unlock();
        return e == null ? null : Waiter.contOf(e);
    }

    @Override
    public String toString() {
        // benign race: count read without the lock, for diagnostics only
        return "Mailbox[" + (name != null ? name : "@" + Integer.toHexString(System.identityHashCode(this)))
                + ", " + count + " messages]";
    }

    // ---------------------------------------------------------------- the operations

    /** {@code send(x)}. */
    private final class Send extends Job<Void> {
        private final A message;

        Send(A message) {
            this.message = message;
        }

        @Override
        void doJob(Worker w, Cont<Void> k) {
            doJobThroughNow(w, k);
        }

        @Override
        <B> Object doJobNow(Worker w, Sequence.Step<Void, B> step, Cont<B> k) {
            Mailbox.this.lock();
            Work t = count == 0 ? matchTakerLocked() : null;
            if (t == null) {
                appendLocked(message);
                Mailbox.this.unlock();
            } else {
                Mailbox.this.unlock();
                Waiter.release(w, t, message);
            }
            return null;
        }
    }

    /**
     * {@code take()}; also the {@link Blocker} of this mailbox's plain takers (it exists once per mailbox,
     * and keeps the internal interface out of the public type).
     */
    private final class Take extends Alt<A> implements Blocker {
        @Override
        public Cont<?> removeWaiter(FiberBase<?> fiber) {
            return removePlainWaiter(fiber);
        }

        @Override
        public String describe() {
            return Mailbox.this.toString();
        }

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
            Mailbox.this.lock();
            if (count > 0) {
                A m = pollLocked();
                Mailbox.this.unlock();
                return m;
            }
            Cont<A> waiting = StepTail.contFor(step, k);
            takers.block(self, take, waiting);
            Mailbox.this.unlock();
            takers.blocked(w, self, take);
            ContinuationBody.helpWhileWaiting(w, waiting);
            return LATER;
        }

        @Override
        void tryAlt(Worker w, int i, Cont<A> k, Else e) {
            Pick pk = e.pick;
            Mailbox.this.lock();
            if (count > 0) {
                if (!pk.commitSelf(i)) {
                    Mailbox.this.unlock();
                    pk.instantiated(w);
                    return;
                }
                A m = pollLocked();
                Mailbox.this.unlock();
                pk.fireListeners(w);
                Trampoline.succeed(w, k, m);
                return;
            }
            takers.add(new Waiter<A>(k, pk, i, null));
            Mailbox.this.unlock();
            e.tryElse(w, i + 1);
        }

        @Override
        public String toString() {
            return "take from " + Mailbox.this;
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

    private static final VarHandle LOCK = SpinLock.handle(MethodHandles.lookup(), Mailbox.class, "lock");
}
