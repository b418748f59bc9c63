package dev.spindle.sync;

import dev.spindle.Alt;
import dev.spindle.Direct;
import dev.spindle.Job;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.select.LockedWait;
import dev.spindle.internal.select.LockedWaitQueue;
import dev.spindle.internal.select.Waiter;
import java.util.Objects;

/**
 * A counting semaphore for fibers and threads: {@link #acquire()} takes a permit, waiting (without holding a
 * worker) while none is available; {@link #release()} gives one back, handing it straight to the oldest
 * waiter if there is one (fair: no barging).
 *
 * <pre>{@code
 * Semaphore connections = new Semaphore(4, "db connections");
 * Job<Row> query = connections.withPermit(Job.blocking(() -> db.query(sql)));
 * scheduler.run(Job.all(List.of(query, query, query, query, query)));   // at most 4 at a time
 *
 * connections.acquireBlocking();                  // from an ordinary thread
 * try { ... } finally { connections.release(); }
 * }</pre>
 *
 * <p>A waiter cancelled (or interrupted) while waiting is removed and takes no permit; a permit is never
 * lost or duplicated by such a race. {@link #withPermit(Job)} releases its permit when the body ends in any
 * way; with bare {@code acquire()}, a fiber cancelled after the permit was granted still holds it.
 * As with {@link java.util.concurrent.Semaphore}, {@code release()} may raise the count above the initial
 * number of permits.
 *
 * @implNote Each operation is a short critical section under a spin lock; a hand-over resumes the waiter
 *     without allocating.
 */
public final class Semaphore {
    /*
     * Implementation overview
     * =======================
     * State and transitions (permits is written under the queue lock, read without it)
     *   permits | waiters | meaning
     *   p > 0   | none    | p permits available
     *   0       | none    | all taken
     *   0       | some    | all taken, waiters blocked in arrival order
     *
     *   acquire:  p > 0 -> p - 1 (in a choose: only if its pick commits, in the same critical section);
     *             p == 0 -> link a waiter
     *   release:  a waiter it can commit ? hand the permit to it (p stays 0) : p + 1 (waiters of chooses
     *             decided elsewhere are dropped on the way)
     *   withdraw: (cancel, interrupt, via the queue lock) unlinks the waiter; no permit moves
     *   INV: permits > 0 implies no live waiters. So a permit is either counted in permits or held by exactly
     *        one acquirer; a waiter withdrawn by cancellation, or whose choose went another way, never held one.
     */

    private final String name;
    private final LockedWaitQueue waiters = new LockedWaitQueue(this);
    /** Available permits. Written under the queue lock; volatile reads. */
    private volatile int permits;
    private final Acquire take = new Acquire();
    private final Alt<Void> acquire = Bridge.alt(take);

    /**
     * A semaphore with {@code permits} permits available.
     *
     * @param permits the number of permits available at first
     * @throws IllegalArgumentException if {@code permits} is negative
     */
    public Semaphore(int permits) {
        this(permits, null);
    }

    /**
     * A semaphore with {@code permits} permits available, named {@code name} in {@code toString} (and so in
     * deadlock reports); {@code name} may be null.
     *
     * @param permits the number of permits available at first
     * @param name the semaphore's name, or null
     * @throws IllegalArgumentException if {@code permits} is negative
     */
    public Semaphore(int permits, String name) {
        Waits.requireNonNegative(permits, "Semaphore permits");
        this.permits = permits;
        this.name = name;
    }

    /**
     * {@return an alternative that takes a permit, waiting while none is available} Cancellable while it
     * waits. In a {@link Alt#choose} it takes a permit only when committed to.
     */
    public Alt<Void> acquire() {
        return acquire;
    }

    /**
     * Takes a permit, blocking the calling thread while none is available.
     *
     * @throws InterruptedException if the thread is interrupted while waiting (it then holds no permit)
     * @throws IllegalStateException if it would have to wait on a thread that runs fibers: use
     *     {@link #acquire()} inside jobs
     */
    public void acquireBlocking() throws InterruptedException {
        if (Direct.inDirectBody()) {
            Direct.await(acquire());
            return;
        }
        if (tryAcquire()) {
            return;
        }
        Waits.checkMayBlock(this, "Semaphore.acquireBlocking()", "acquire()");
        take.awaitThread(-1, true);
    }

    /**
     * Takes a permit if one is available; never waits.
     *
     * @return whether a permit was taken
     */
    public boolean tryAcquire() {
        if (permits == 0) {
            return false;
        }
        return take.tryNow(null) != LockedWait.NOT_READY;
    }

    /**
     * Gives a permit back: to the oldest waiter if there is one, else to the count. Callable from any thread
     * or job.
     *
     * @throws IllegalStateException if the count would exceed {@link Integer#MAX_VALUE}
     */
    public void release() {
        waiters.lock();
        Work next = waiters.pollCommitted();
        if (next == null) {
            if (permits == Integer.MAX_VALUE) {
                waiters.unlock();
                throw new IllegalStateException("Semaphore.release() would overflow the permits of " + this);
            }
            permits = permits + 1;
        }
        waiters.unlock();
        if (next != null) {
            Waiter.release(null, next, null);
        }
    }

    /**
     * {@return a job that runs {@code body} holding a permit: it takes one (waiting as {@link #acquire()}
     * does), runs the body, and gives the permit back when the body ends in any way} Cancellation at any
     * point leaves the permits as it found them.
     *
     * @param <A> the type of the body's value
     * @param body the job to run holding a permit
     */
    public <A> Job<A> withPermit(Job<A> body) {
        Objects.requireNonNull(body, "body");
        return Job.bracket(acquire, v -> body, v -> Job.run(this::release));
    }

    /** {@return the number of permits available now} */
    public int availablePermits() {
        return permits;
    }

    /** Waiters currently linked (for tests). */
    int waiterCount() {
        return waiters.waiting();
    }

    @Override
    public String toString() {
        return Waits.label(this, "Semaphore", name) + "[permits=" + permits + ", waiters=" + waiters.waiting() + "]";
    }

    /** {@link #acquire()} in its three forms: a choose's alternative, a plain job, a thread's blocking call. */
    private final class Acquire extends LockedWait<Void> {
        Acquire() {
            super(waiters);
        }

        @Override
        protected boolean readyLocked(Object who) {
            return permits > 0;
        }

        @Override
        protected Void takeLocked(Object who) {
            permits = permits - 1;
            return null;
        }

        @Override
        public String toString() {
            return "acquire of " + Semaphore.this;
        }
    }
}
