package dev.spindle.sync;

import dev.spindle.Direct;
import dev.spindle.Job;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Strand;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.JobImpl;
import java.util.Objects;

/**
 * A fiber-aware mutual-exclusion lock: a fiber waiting in {@link #lock()} frees its worker for other fibers.
 * Not reentrant. Fair: {@link #unlock()} hands the lock to the oldest waiter, so nobody barges in ahead of
 * it. Used with {@link ConditionVariable}.
 *
 * <pre>{@code
 * Mutex mutex = new Mutex("accounts");
 * Job<Void> transfer = mutex.withLock(Job.run(() -> { from.debit(10); to.credit(10); }));
 * scheduler.run(transfer);
 *
 * mutex.lockBlocking();                 // from an ordinary thread
 * try { ... } finally { mutex.unlock(); }
 * }</pre>
 *
 * <p>Prefer {@link #withLock(Job)}: it unlocks after the body in every outcome, including cancellation at
 * any point after the lock was granted. With bare {@code lock()}, a fiber cancelled after the lock was
 * granted still holds it; pair it with a finalizer that unlocks. A fiber cancelled while waiting is removed
 * and never holds the lock.
 *
 * @implNote {@code lock}/{@code unlock} are a short critical section under a spin lock each; a hand-over
 *     resumes the waiter without allocating.
 */
public final class Mutex {
    /*
     * Implementation overview
     * =======================
     * State and transitions (locked and owner are guarded by the queue lock)
     *   locked | waiters | meaning
     *   false  | none    | free
     *   true   | none    | held
     *   true   | some    | held, waiters blocked in arrival order
     *
     *   lock:   free -> held (owner = the fiber or thread); held -> link a waiter
     *   unlock: waiters ? hand over to the oldest (locked stays true, owner = that waiter)
     *                   : free
     *   INV: !locked implies no waiters (a waiter is only linked while the lock is held, and unlock never
     *        frees a lock that has waiters).
     *
     * owner is for diagnostics (toString, deadlock reports) and to fail fast on a self-deadlock (the
     * holder locking again). It is null when tryLock() took the lock: a plain call cannot tell which fiber
     * made it.
     */

    private final String name;
    private final WaitQueue waiters = new WaitQueue(this);
    /** Written under the queue lock; volatile reads. */
    private volatile boolean locked;
    /** The holder (a fiber or a thread), or null when unknown. Guarded by the queue lock. */
    private Object owner;
    private final Job<Void> lock = Bridge.job(new LockBody());

    /** A free mutex. */
    public Mutex() {
        this(null);
    }

    /** A free mutex named {@code name} in {@code toString} (and so in deadlock reports); may be null. */
    public Mutex(String name) {
        this.name = name;
    }

    /**
     * A job that acquires the lock, waiting (without holding a worker) while another holder has it.
     * Cancellable while it waits.
     *
     * <p>The job fails with {@link IllegalStateException} if the fiber running it already holds the lock
     * (it would wait for itself forever).
     */
    public Job<Void> lock() {
        return lock;
    }

    /**
     * Acquires the lock, blocking the calling thread while another holder has it.
     *
     * @throws InterruptedException if the thread is interrupted while waiting (it then does not hold the
     *     lock)
     * @throws IllegalStateException if the calling thread already holds the lock, or if it would have to
     *     wait on a thread that runs fibers (use {@link #lock()} inside jobs)
     */
    public void lockBlocking() throws InterruptedException {
        if (Direct.inDirectBody()) {
            Direct.await(lock());
            return;
        }
        if (tryAcquire(Thread.currentThread())) {
            return;
        }
        Waits.checkMayBlock(this, "Mutex.lockBlocking()", "lock()");
        ThreadWaiter t = new ThreadWaiter();
        if (!acquireOrLink(t, true)) {
            t.await(waiters, -1, true);
        }
    }

    /** Acquires the lock if it is free and returns true; never waits. */
    public boolean tryLock() {
        return tryAcquire(null);
    }

    /**
     * Releases the lock, handing it to the oldest waiter if there is one. Callable from any thread or job
     * (the lock is not tied to the fiber that took it).
     *
     * @throws IllegalStateException if the mutex is not locked
     */
    public void unlock() {
        waiters.lock();
        if (!locked) {
            waiters.unlock();
            throw new IllegalStateException("unlock of " + this + ", which is not locked");
        }
        Cont<?> next = waiters.pollLocked();
        Engine engine = waiters.plainEngineLocked();
        if (next == null) {
            locked = false;
            owner = null;
        } else {
            owner = WaitQueue.identityOf(next);
        }
        assert locked || waiters.isEmpty() : "INV: !locked implies no waiters";
        waiters.unlock();
        if (next != null) {
            WaitQueue.resume(next, null, engine);
        }
    }

    /**
     * A job that runs {@code body} holding the lock: it acquires the lock (waiting as {@link #lock()}
     * does), runs the body, and releases the lock when the body ends in any way. Cancellation at any point
     * leaves the lock as it found it: a waiter cancelled before the grant never holds it, and a grant that
     * cancellation overtakes is released by the finalizer.
     */
    public <A> Job<A> withLock(Job<A> body) {
        Objects.requireNonNull(body, "body");
        return GrantStep.bracket(LockStep::new, body);
    }

    /** Whether the lock is held (by anyone). */
    public boolean isLocked() {
        return locked;
    }

    /** Waiters currently linked (for tests). */
    int waiterCount() {
        return waiters.waiting();
    }

    @Override
    public String toString() {
        waiters.lock();
        boolean l = locked;
        Object o = owner;
        int n = waiters.size();
        waiters.unlock();
        return Waits.label(this, "Mutex", name) + "[" + (l ? "locked by " + Waits.nameOf(o) : "unlocked")
                + ", waiters=" + n + "]";
    }

    // ---------------------------------------------------------------- internals

    private boolean tryAcquire(Object who) {
        if (locked) {
            return false;
        }
        waiters.lock();
        if (locked) {
            boolean self = who != null && owner == who;
            waiters.unlock();
            if (self) {
                throw new IllegalStateException(this + " is not reentrant: the calling thread already holds it");
            }
            return false;
        }
        locked = true;
        owner = who;
        waiters.unlock();
        return true;
    }

    /**
     * Takes the lock for {@code waiter} if free (true), or links it to be woken with the lock (false). Used
     * for waits nobody may cancel: threads and a condition variable's re-lock. {@code checkReentry} fails
     * when the waiter already holds the lock; a re-lock passes false, since it may be linked a moment
     * before its own fiber's unlock.
     */
    boolean acquireOrLink(Waiter<?> waiter, boolean checkReentry) {
        waiters.lock();
        if (!locked) {
            locked = true;
            owner = waiter.identity();
            waiters.unlock();
            return true;
        }
        if (checkReentry && owner != null && owner == waiter.identity()) {
            waiters.unlock();
            throw new IllegalStateException(this + " is not reentrant: " + Waits.nameOf(owner) + " already holds it");
        }
        waiters.addLocked(waiter);
        waiters.unlock();
        return false;
    }

    /** Acquires for an ordinary thread, ignoring interrupts (a condition variable's re-lock). */
    void lockUninterruptibly() {
        ThreadWaiter t = new ThreadWaiter();
        if (!acquireOrLink(t, false)) {
            try {
                t.await(waiters, -1, false);
            } catch (InterruptedException impossible) {
                throw new AssertionError(impossible);
            }
        }
    }

    /**
     * The fiber of {@code k} acquires the lock: {@code k} continues at once when it is free, else waits
     * (cancellably) until a hand-over resumes it. {@code step}, when not null, records the grant.
     */
    private void acquire(Worker w, Cont<Void> k, GrantStep step) {
        if (Waits.cancelled(w, k)) {
            return;
        }
        Strand<?> self = k.fiber;
        waiters.lock();
        if (!locked) {
            locked = true;
            owner = self;
            waiters.unlock();
            if (step != null) {
                step.granted = true;
            }
            Waits.succeed(w, k, null);
            return;
        }
        if (self != null && owner == self) {
            waiters.unlock();
            Waits.fail(w, k, new IllegalStateException(
                    this + " is not reentrant: the fiber already holds it and would wait for itself"));
            return;
        }
        waiters.blockLocked(w, step == null ? k : step.waiterFor(k, w.engine()));
    }

    /** {@link #lock()}. */
    private final class LockBody extends JobImpl<Void> {
        @Override
        public void doJob(Worker w, Cont<Void> k) {
            acquire(w, k, null);
        }
    }

    /** The acquisition step of one run of {@link #withLock}. */
    private final class LockStep extends GrantStep {
        @Override
        public void doJob(Worker w, Cont<Void> k) {
            acquire(w, k, this);
        }

        @Override
        void release() {
            unlock();
        }
    }
}
