package dev.spindle.sync;

import dev.spindle.Alt;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.select.LockedWaitQueue;
import dev.spindle.internal.select.Waiter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A counter of unfinished tasks that fibers and threads can wait on: {@link #await()} completes once the
 * count is zero. Tasks are announced with {@link #add(int)} (or the initial count) and finish with
 * {@link #done()} (marl's {@code WaitGroup}, Go's {@code sync.WaitGroup}).
 *
 * <pre>{@code
 * WaitGroup wg = new WaitGroup(3);
 * Job<Void> task = Job.run(() -> work()).ensure(Job.run(wg::done));
 * Job<Void> main = task.forget().then(task.forget()).then(task.forget())
 *         .then(wg.await());                       // waits for all three, without holding a worker
 * scheduler.run(main);
 * // from an ordinary thread: wg.awaitBlocking();
 * }</pre>
 *
 * <p>A fiber cancelled while waiting stops waiting and leaves nothing behind. Every waiter is released by the
 * {@code done()} that brings the count to zero; a later {@code add} starts a new round.
 *
 * @implNote {@code add} and a {@code done} that does not reach zero are one CAS each; the last {@code done}
 *     takes a short spin lock and resumes the waiters without allocating.
 */
public final class WaitGroup {
    /*
     * Implementation overview
     * =======================
     * State and transitions
     *   count | waiters | meaning
     *   0     | none    | open: await() completes at once
     *   n > 0 | any     | closed: await() links a waiter
     *
     *   add(k):  n -> n + k                 CAS, no lock (it never wakes anyone)
     *   done():  n -> n - 1 for n > 1       CAS, no lock
     *            1 -> 0                     CAS under the queue lock, which also takes every waiter
     *            0 -> error                 IllegalStateException, nothing changes
     *   await(): under the lock: count == 0 ? complete : link
     *
     * Why the last step takes the lock: a waiter links under the lock after reading count > 0, and the
     * 1 -> 0 step happens under the same lock, so it sees every waiter that saw a positive count.
     * INV: count >= 0. INV (outside the lock): count == 0 implies no waiters.
     */

    private final String name;
    /** Guards the waiters and the 1 -> 0 transition. */
    private final LockedWaitQueue waiters = new LockedWaitQueue(this);
    /** Unfinished tasks. CAS from any thread; volatile reads. */
    private volatile int count;
    /** {@link #await()} in its three forms: a choose's alternative, a plain job, a thread's blocking call. */
    private final OpenWait wait = new OpenWait(waiters, this, () -> count == 0);

    /** A wait group with count zero. */
    public WaitGroup() {
        this(0, null);
    }

    /**
     * A wait group whose count starts at {@code initial}.
     *
     * @param initial the count of unfinished tasks at first
     * @throws IllegalArgumentException if {@code initial} is negative
     */
    public WaitGroup(int initial) {
        this(initial, null);
    }

    /**
     * A wait group whose count starts at {@code initial}, named {@code name} in {@code toString} (and so in
     * deadlock reports and fiber dumps); {@code name} may be null.
     *
     * @param initial the count of unfinished tasks at first
     * @param name the wait group's name, or null
     * @throws IllegalArgumentException if {@code initial} is negative
     */
    public WaitGroup(int initial, String name) {
        Waits.requireNonNegative(initial, "WaitGroup initial count");
        this.count = initial;
        this.name = name;
    }

    /**
     * Adds {@code n} unfinished tasks.
     *
     * @param n the number of tasks to add
     * @throws IllegalArgumentException if {@code n} is negative
     * @throws IllegalStateException if the count would exceed {@link Integer#MAX_VALUE}
     */
    public void add(int n) {
        Waits.requireNonNegative(n, "WaitGroup.add count");
        int c;
        do {
            c = count;
            if (c + n < 0) {
                throw new IllegalStateException("WaitGroup.add(" + n + ") would overflow the count of " + this);
            }
        } while (!COUNT.compareAndSet(this, c, c + n));
    }

    /**
     * Marks one task finished; the one that brings the count to zero releases every waiter.
     *
     * @throws IllegalStateException if the count is already zero (more {@code done()} calls than tasks)
     */
    public void done() {
        int c;
        do {
            c = count;
            if (c <= 1) {
                doneSlow();
                return;
            }
        } while (!COUNT.compareAndSet(this, c, c - 1));
    }

    private void doneSlow() {
        waiters.lock();
        int c;
        do {
            c = count;
            if (c == 0) {
                waiters.unlock();
                throw new IllegalStateException("WaitGroup.done() called more times than tasks were added: "
                        + "the count of " + this + " is already zero");
            }
        } while (!COUNT.compareAndSet(this, c, c - 1));
        Work released = c == 1 ? waiters.drain() : null;
        waiters.unlock();
        Waiter.releaseAll(null, released, null);
    }

    /** {@return the number of unfinished tasks} */
    public int count() {
        return count;
    }

    /**
     * {@return an alternative that completes when the count is zero (at once if it is)} Cancellable while it
     * waits.
     */
    public Alt<Void> await() {
        return wait.alt();
    }

    /**
     * Blocks the calling thread until the count is zero.
     *
     * @throws InterruptedException if the thread is interrupted while waiting (it then waits no more)
     * @throws IllegalStateException if it would have to wait on a thread that runs fibers: use
     *     {@link #await()} inside jobs
     */
    public void awaitBlocking() throws InterruptedException {
        wait.awaitBlocking("WaitGroup.awaitBlocking()");
    }

    /** Waiters currently linked (for tests). */
    int waiterCount() {
        return waiters.waiting();
    }

    @Override
    public String toString() {
        return Waits.label(this, "WaitGroup", name) + "[count=" + count + ", waiters=" + waiters.waiting() + "]";
    }

    private static final VarHandle COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(WaitGroup.class, "count", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
