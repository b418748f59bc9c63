package dev.spindle.sync;

import dev.spindle.Direct;
import dev.spindle.Job;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.JobImpl;
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
     *   acquire:  p > 0 -> p - 1; p == 0 -> link a waiter
     *   release:  waiters ? hand the permit to the oldest (p stays 0) : p + 1
     *   withdraw: (cancel, interrupt, via the queue lock) unlinks the waiter; no permit moves
     *   INV: permits > 0 implies no waiters. So a permit is either counted in permits or held by exactly one
     *        acquirer; a waiter withdrawn by cancellation never held one.
     */

    private final String name;
    private final WaitQueue waiters = new WaitQueue(this);
    /** Available permits. Written under the queue lock; volatile reads. */
    private volatile int permits;
    private final Job<Void> acquire = Bridge.job(new AcquireBody());

    /**
     * A semaphore with {@code permits} permits available.
     *
     * @throws IllegalArgumentException if {@code permits} is negative
     */
    public Semaphore(int permits) {
        this(permits, null);
    }

    /**
     * A semaphore with {@code permits} permits available, named {@code name} in {@code toString} (and so in
     * deadlock reports); {@code name} may be null.
     *
     * @throws IllegalArgumentException if {@code permits} is negative
     */
    public Semaphore(int permits, String name) {
        Waits.requireNonNegative(permits, "Semaphore permits");
        this.permits = permits;
        this.name = name;
    }

    /** A job that takes a permit, waiting while none is available. Cancellable while it waits. */
    public Job<Void> acquire() {
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
        ThreadWaiter t = new ThreadWaiter();
        waiters.lock();
        if (takeLocked()) {
            waiters.unlock();
            return;
        }
        waiters.addLocked(t);
        waiters.unlock();
        t.await(waiters, -1, true);
    }

    /** Takes a permit if one is available and returns true; never waits. */
    public boolean tryAcquire() {
        if (permits == 0) {
            return false;
        }
        waiters.lock();
        boolean taken = takeLocked();
        waiters.unlock();
        return taken;
    }

    /**
     * Gives a permit back: to the oldest waiter if there is one, else to the count. Callable from any thread
     * or job.
     *
     * @throws IllegalStateException if the count would exceed {@link Integer#MAX_VALUE}
     */
    public void release() {
        waiters.lock();
        Cont<?> next = waiters.pollLocked();
        Engine engine = waiters.plainEngineLocked();
        if (next == null) {
            if (permits == Integer.MAX_VALUE) {
                waiters.unlock();
                throw new IllegalStateException("Semaphore.release() would overflow the permits of " + this);
            }
            permits = permits + 1;
        }
        assert permits == 0 || waiters.isEmpty() : "INV: permits > 0 implies no waiters";
        waiters.unlock();
        if (next != null) {
            WaitQueue.resume(next, null, engine);
        }
    }

    /**
     * A job that runs {@code body} holding a permit: it takes one (waiting as {@link #acquire()} does), runs
     * the body, and gives the permit back when the body ends in any way. Cancellation at any point leaves the
     * permits as it found them.
     */
    public <A> Job<A> withPermit(Job<A> body) {
        Objects.requireNonNull(body, "body");
        return GrantStep.bracket(PermitStep::new, body);
    }

    /** The number of permits available now. */
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

    // ---------------------------------------------------------------- internals

    /** Takes a permit if available. Caller holds the lock. */
    private boolean takeLocked() {
        int p = permits;
        if (p == 0) {
            return false;
        }
        permits = p - 1;
        return true;
    }

    /** The fiber of {@code k} takes a permit, at once or after waiting; {@code step} records the grant. */
    private void acquire(Worker w, Cont<Void> k, GrantStep step) {
        if (Waits.cancelled(w, k)) {
            return;
        }
        waiters.lock();
        if (takeLocked()) {
            waiters.unlock();
            if (step != null) {
                step.granted = true;
            }
            Waits.succeed(w, k, null);
            return;
        }
        waiters.blockLocked(w, step == null ? k : step.waiterFor(k, w.engine()));
    }

    /** {@link #acquire()}. */
    private final class AcquireBody extends JobImpl<Void> {
        @Override
        public void doJob(Worker w, Cont<Void> k) {
            acquire(w, k, null);
        }
    }

    /** The acquisition step of one run of {@link #withPermit}. */
    private final class PermitStep extends GrantStep {
        @Override
        public void doJob(Worker w, Cont<Void> k) {
            acquire(w, k, this);
        }

        @Override
        void release() {
            Semaphore.this.release();
        }
    }
}
