package dev.spindle.sync;

import dev.spindle.Alt;
import dev.spindle.internal.run.SpinLock;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.select.LockedWaitQueue;
import dev.spindle.internal.select.Waiter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * A place in a {@link Queue}: tickets are <em>called</em> one after another in the order they were taken,
 * each once every earlier ticket is {@link #done()} (marl's {@code Ticket}). Use it to run work in a fixed
 * order while it is produced concurrently, e.g. to write results in submission order.
 *
 * <pre>{@code
 * Ticket.Queue queue = new Ticket.Queue();
 * List<Job<Void>> jobs = new ArrayList<>();
 * for (Chunk chunk : chunks) {
 *     Ticket ticket = queue.take();                                 // tickets in submission order
 *     jobs.add(compress(chunk)                                      // concurrently, in any order
 *             .flatMap(bytes -> ticket.await().then(Job.run(() -> out.write(bytes))))   // in ticket order
 *             .ensure(Job.run(ticket::done)));                      // always pass the turn on
 * }
 * scheduler.run(Job.all(jobs));
 * }</pre>
 *
 * <p>{@code done()} may be called before the ticket is called (the ticket then passes its turn on as soon
 * as it comes) and more than once (later calls do nothing). A fiber cancelled in {@link #await()} stops
 * waiting; the ticket itself keeps its place until {@code done()}.
 */
public final class Ticket {
    /*
     * Implementation overview
     * =======================
     * The queue links its tickets in take order, from head (the ticket whose turn it is) to tail; a ticket
     * leaves the list when it is done and has reached the head. Each ticket has its own wait queue whose lock
     * also guards its called flag.
     *
     * Ticket states
     *   name      | representation               | meaning
     *   WAITING   | !called, !done               | an earlier ticket is not done; await() links a waiter
     *   EARLY     | !called, done                | done before its turn; passes the turn on when it comes
     *   CALLED    | called, !done                | its turn: await() completes at once
     *   FINISHED  | called, done                 | left the queue
     *
     *   WAITING -> CALLED     every earlier ticket finished (or take() found the queue empty)
     *   WAITING -> EARLY      done()
     *   CALLED  -> FINISHED   done(): the next tickets are called, EARLY ones finish at once in turn
     *   EARLY   -> FINISHED   its turn came
     *
     * Locks: the queue lock guards the list and the done flags; a ticket's wait-queue lock guards its called
     * flag and waiters. done() takes the wait-queue locks of the tickets it calls inside the queue lock (the
     * only nesting, always in that order), so every ticket one done() calls is called, and its waiters
     * taken, at once for any observer; the waiters are resumed after both locks are released.
     * INV: head is the oldest ticket not yet finished; every ticket before a called one is finished.
     */

    private final Queue queue;
    /** Next ticket in take order. Guarded by the queue's lock. */
    private Ticket next;
    /** Whether done() was called. Guarded by the queue's lock. */
    private boolean done;
    /** Whether it is (or was) this ticket's turn. Written under waiters' lock; volatile reads. */
    private volatile boolean called;
    private final LockedWaitQueue waiters = new LockedWaitQueue(this);
    /** {@link #await()} in its three forms: a choose's alternative, a plain job, a thread's blocking call. */
    private final OpenWait wait = new OpenWait(waiters, this, () -> called);

    private Ticket(Queue queue) {
        this.queue = queue;
    }

    /**
     * {@return an alternative that completes when this ticket is called: every ticket taken before it from
     * the same queue is done} Cancellable while it waits.
     */
    public Alt<Void> await() {
        return wait.alt();
    }

    /**
     * Blocks the calling thread until this ticket is called.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     * @throws IllegalStateException if it would have to wait on a thread that runs fibers: use
     *     {@link #await()} inside jobs
     */
    public void awaitBlocking() throws InterruptedException {
        wait.awaitBlocking("Ticket.awaitBlocking()");
    }

    /**
     * {@return whether this ticket has been called (every earlier ticket is done)} Read under the queue's
     * lock, so the tickets one {@code done()} calls are seen called together, their waiters released.
     */
    public boolean isCalled() {
        queue.lock();
        boolean c = called;
        queue.unlock();
        return c;
    }

    /**
     * Marks this ticket done: once it has been called, the next ticket in the queue is called. Calling it
     * before this ticket's turn gives the turn up in advance; calling it again does nothing.
     */
    public void done() {
        queue.finish(this);
    }

    /** Waiters currently linked (for tests). */
    int waiterCount() {
        return waiters.waiting();
    }

    @Override
    public String toString() {
        String state = called ? "called" : "waiting";
        return "Ticket of " + queue.label() + "[" + state + ", waiters=" + waiters.waiting() + "]";
    }

    /** It is this ticket's turn: releases its waiters. */
    private void call() {
        Waiter.releaseAll(null, callLocked(), null);
    }

    /**
     * Marks this ticket called and takes its waiters, under its wait-queue lock; gives them (null if none)
     * to be resumed after every lock is released.
     */
    private Work callLocked() {
        waiters.lock();
        called = true;
        Work all = waiters.drain();
        waiters.unlock();
        return all;
    }

    /**
     * Hands out {@link Ticket}s in order.
     *
     * <pre>{@code
     * Ticket.Queue queue = new Ticket.Queue("writer");
     * Ticket first = queue.take(), second = queue.take();
     * second.awaitBlocking(); // ... would wait until first.done()
     * }</pre>
     */
    public static final class Queue {
        private final String name;
        /** Guards the list and every ticket's next and done fields. */
        private int lock;
        /** Oldest ticket not finished, or null. Guarded by lock. */
        private Ticket head;
        /** Newest ticket, or null. Guarded by lock. */
        private Ticket tail;
        /** Tickets taken and not finished. Guarded by lock. */
        private int pending;

        /** An empty queue. */
        public Queue() {
            this(null);
        }

        /**
         * An empty queue named {@code name} in {@code toString}; {@code name} may be null.
         *
         * @param name the queue's name, or null
         */
        public Queue(String name) {
            this.name = name;
        }

        /**
         * Takes the next ticket.
         *
         * @return the ticket, called once every ticket taken before it is done
         */
        public Ticket take() {
            Ticket t = new Ticket(this);
            lock();
            boolean first = head == null;
            if (first) {
                head = t;
            } else {
                tail.next = t;
            }
            tail = t;
            pending++;
            unlock();
            if (first) {
                t.call();
            }
            return t;
        }

        /** {@link Ticket#done()}. */
        private void finish(Ticket t) {
            lock();
            if (t.done) {
                unlock();
                return;
            }
            t.done = true;
            if (t != head) {
                unlock(); // EARLY: passed over when its turn comes
                return;
            }
            // t finishes; so do the EARLY tickets right behind it; the first ticket not done is called
            Ticket passed = t.next;
            Ticket n = passed;
            pending--;
            while (n != null && n.done) {
                pending--;
                n = n.next;
            }
            head = n;
            if (n == null) {
                tail = null;
            }
            t.next = null;
            // Every ticket whose turn this makes is called, its waiters taken, before the queue's lock goes:
            // no one sees a later ticket called and an earlier one not, or a called ticket with waiters.
            List<Work> released = null;
            for (Ticket c = passed; c != null; c = c == n ? null : c.next) { // passed up to n, n included
                Work r = c.callLocked();
                if (r != null) {
                    if (released == null) {
                        released = new ArrayList<>(2);
                    }
                    released.add(r);
                }
            }
            unlock();
            // the tickets from passed up to n have left the list: only this thread touches their links now
            while (passed != n) {
                Ticket after = passed.next;
                passed.next = null;
                passed = after;
            }
            if (released != null) {
                for (Work r : released) {
                    Waiter.releaseAll(null, r, null);
                }
            }
        }

        /** Tickets taken and not yet finished (for tests). */
        int pendingTickets() {
            lock();
            int p = pending;
            unlock();
            return p;
        }

        String label() {
            return Waits.label(this, "Ticket.Queue", name);
        }

        @Override
        public String toString() {
            return label() + "[pending=" + pendingTickets() + "]";
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

        private static final VarHandle LOCK = SpinLock.handle(MethodHandles.lookup(), Queue.class, "lock");
    }
}
