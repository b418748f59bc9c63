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
 * <p>{@link #lock()} is an {@link Alt}: offered in {@link Alt#choose} it takes the lock only if it is the
 * alternative committed to; a losing {@code lock()} leaves the mutex as it found it.
 *
 * <pre>{@code
 * Job<Object> step = Alt.choose(
 *         mutex.lock().wrap(v -> (Object) "locked"),
 *         shutdown.await().wrap(v -> "stopping"),
 *         Alt.after(Duration.ofMillis(50)).wrap(v -> "busy"));
 * }</pre>
 *
 * @implNote {@code lock}/{@code unlock} are a short critical section under a spin lock each; a hand-over
 *     resumes the waiter without allocating (a waiting {@code lock()} run as a job queues its own
 *     continuation).
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
     *   lock:   free -> held (owner = the fiber or thread; in a choose only if its pick commits, in the
     *           same critical section); held -> link a waiter
     *   unlock: a waiter it can commit ? hand over to it (locked stays true, owner = that waiter)
     *                                  : free (waiters of chooses decided elsewhere are dropped)
     *   INV: !locked implies no live waiters (a waiter is only linked while the lock is held, and unlock
     *        never frees a lock that has a waiter it can commit).
     *
     * owner is for diagnostics (toString, deadlock reports) and to fail fast on a self-deadlock (the
     * holder locking again). It is null when tryLock() took the lock: a plain call cannot tell which fiber
     * made it.
     */

    private final String name;
    private final LockedWaitQueue waiters = new LockedWaitQueue(this);
    /** Written under the queue lock; volatile reads. */
    private volatile boolean locked;
    /** The holder (a fiber or a thread), or null when unknown. Guarded by the queue lock. */
    private Object owner;
    private final Acquire acquire = new Acquire();
    private final Alt<Void> lock = Bridge.alt(acquire);

    /** A free mutex. */
    public Mutex() {
        this(null);
    }

    /**
     * A free mutex named {@code name} in {@code toString} (and so in deadlock reports); may be null.
     *
     * @param name the mutex's name, or null
     */
    public Mutex(String name) {
        this.name = name;
    }

    /**
     * {@return an alternative that acquires the lock, waiting (without holding a worker) while another holder
     * has it} Cancellable while it waits. In a {@link Alt#choose} it takes the lock only when committed to.
     *
     * <p>It fails with {@link IllegalStateException} if the fiber running it already holds the lock
     * (it would wait for itself forever).
     */
    public Alt<Void> lock() {
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
        if (acquire.tryNow(Thread.currentThread()) != LockedWait.NOT_READY) {
            return;
        }
        Waits.checkMayBlock(this, "Mutex.lockBlocking()", "lock()");
        acquire.awaitThread(-1, true);
    }

    /**
     * Acquires the lock if it is free; never waits.
     *
     * @return whether the lock was acquired
     */
    public boolean tryLock() {
        if (locked) {
            return false;
        }
        waiters.lock();
        boolean free = !locked;
        if (free) {
            locked = true;
            owner = null;
        }
        waiters.unlock();
        return free;
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
        Work next = waiters.pollCommitted();
        if (next == null) {
            locked = false;
            owner = null;
        } else {
            owner = Waiter.identityOf(next);
        }
        waiters.unlock();
        if (next != null) {
            Waiter.release(null, next, null);
        }
    }

    /**
     * {@return a job that runs {@code body} holding the lock: it acquires the lock (waiting as
     * {@link #lock()} does), runs the body, and releases the lock when the body ends in any way} Cancellation
     * at any point leaves the lock as it found it: a waiter cancelled before the grant never holds it, and a
     * grant that cancellation overtakes is released by the finalizer.
     *
     * @param <A> the type of the body's value
     * @param body the job to run holding the lock
     */
    public <A> Job<A> withLock(Job<A> body) {
        Objects.requireNonNull(body, "body");
        return Job.bracket(lock, v -> body, v -> Job.run(this::unlock));
    }

    /** {@return whether the lock is held (by anyone)} */
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
        int n = waiters.live();
        waiters.unlock();
        return Waits.label(this, "Mutex", name) + "[" + (l ? "locked by " + Waits.nameOf(o) : "unlocked")
                + ", waiters=" + n + "]";
    }

    /** Acquires for an ordinary thread, ignoring interrupts (a condition variable's re-lock). */
    void lockUninterruptibly() {
        try {
            acquire.awaitThread(-1, false);
        } catch (InterruptedException impossible) {
            throw new AssertionError(impossible);
        }
    }

    /** {@link #lock()} in its three forms: a choose's alternative, a plain job, a thread's blocking call. */
    private final class Acquire extends LockedWait<Void> {
        Acquire() {
            super(waiters);
        }

        @Override
        protected boolean readyLocked(Object who) {
            if (!locked) {
                return true;
            }
            if (owner != null && owner == who) {
                // under the lock: name the mutex without toString, which takes the lock
                throw new IllegalStateException(Waits.label(Mutex.this, "Mutex", name) + " is not reentrant: "
                        + Waits.nameOf(who) + " already holds it and would wait for itself");
            }
            return false;
        }

        @Override
        protected Void takeLocked(Object who) {
            locked = true;
            owner = who;
            return null;
        }

        @Override
        public String toString() {
            return "lock of " + Mutex.this;
        }
    }
}
