package dev.spindle.sync;

import dev.spindle.Direct;
import dev.spindle.Job;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Durations;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.JobImpl;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * Lets fibers and threads that hold a {@link Mutex} wait until a condition on the state it guards holds
 * (marl's {@code ConditionVariable}, with the predicate form of {@code std::condition_variable::wait}).
 * The mutex is held while the predicate runs and again when the wait ends, however it ends: with the
 * predicate true, after a timeout, by cancellation (of a fiber) or by interrupt (of a thread).
 *
 * <pre>{@code
 * Mutex mutex = new Mutex();
 * ConditionVariable nonEmpty = new ConditionVariable("queue not empty");
 * Deque<Item> items = new ArrayDeque<>();                              // guarded by mutex
 *
 * Job<Item> take = mutex.withLock(nonEmpty.await(mutex, () -> !items.isEmpty())
 *         .then(Job.of(items::removeFirst)));
 * Job<Void> put = mutex.withLock(Job.run(() -> { items.addLast(item); nonEmpty.signal(); }));
 *
 * boolean got = scheduler.run(mutex.withLock(
 *         nonEmpty.await(mutex, Duration.ofMillis(100), () -> !items.isEmpty())));   // predicate's final value
 * }</pre>
 *
 * <p>Waiters are woken in arrival order. A signal with nobody waiting is lost (wait with a predicate
 * on state that the mutex guards, and change that state under the mutex, as above). An exception thrown by
 * the predicate ends the wait with that exception, the mutex held.
 *
 * @implNote Waiting costs a waiter object (and a timer for timed waits); each wake re-locks the mutex.
 */
public final class ConditionVariable {
    /*
     * Implementation overview
     * =======================
     * A wait, holding the mutex:
     *   loop: if predicate() -> done (mutex held)
     *         if timed out   -> done, false
     *         link a waiter in this queue, then unlock the mutex (linking first means a signal made under the
     *         mutex after our unlock finds us), then wait
     *         woken (signal) or expired: re-lock the mutex, back to loop
     *         cancelled or interrupted: re-lock the mutex, then end with the cancellation / interrupt
     * The re-lock is a Mutex waiter that no cancellation can withdraw (no fiber), so the mutex is always
     * held when the wait ends and a surrounding withLock unlocks exactly what it locked.
     *
     * State: only the queue (this class has no other state). A waiter is in the queue from the link to the
     * signal, expiry or cancellation that unlinks it (TimedWaiter: exactly one of them does).
     */

    private final String name;
    private final WaitQueue waiters = new WaitQueue(this);

    /** A condition variable. */
    public ConditionVariable() {
        this(null);
    }

    /** A condition variable named {@code name} in {@code toString} (and so in deadlock reports); may be null. */
    public ConditionVariable(String name) {
        this.name = name;
    }

    /**
     * A job that waits until {@code predicate} holds. The running fiber must hold {@code mutex}; it is
     * released while waiting and held again whenever the predicate runs and when the job ends. Cancellable
     * while it waits (it then re-locks the mutex and ends cancelled).
     */
    public Job<Void> await(Mutex mutex, BooleanSupplier predicate) {
        return Bridge.job(new WaitBody<Void>(mutex, predicate, false, 0));
    }

    /**
     * A job that waits at most {@code timeout} until {@code predicate} holds, and gives the predicate's final
     * value (evaluated again, holding the mutex, when the time is up). Otherwise as
     * {@link #await(Mutex, BooleanSupplier)}.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public Job<Boolean> await(Mutex mutex, Duration timeout, BooleanSupplier predicate) {
        long nanos = Durations.nonNegativeNanos(timeout, "ConditionVariable.await timeout");
        return Bridge.job(new WaitBody<Boolean>(mutex, predicate, true, nanos));
    }

    /**
     * Blocks the calling thread, which must hold {@code mutex}, until {@code predicate} holds.
     *
     * @throws InterruptedException if the thread is interrupted while waiting (it holds the mutex again)
     * @throws IllegalStateException if {@code mutex} is not locked, or if it would have to wait on a thread
     *     that runs fibers (use {@link #await(Mutex, BooleanSupplier)} inside jobs)
     */
    public void awaitBlocking(Mutex mutex, BooleanSupplier predicate) throws InterruptedException {
        if (Direct.inDirectBody()) {
            Direct.await(await(mutex, predicate));
            return;
        }
        awaitThread(mutex, predicate, -1);
    }

    /**
     * Blocks the calling thread, which must hold {@code mutex}, at most {@code timeout} until
     * {@code predicate} holds; gives the predicate's final value.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws InterruptedException if the thread is interrupted while waiting (it holds the mutex again)
     * @throws IllegalStateException as {@link #awaitBlocking(Mutex, BooleanSupplier)}
     */
    public boolean awaitBlocking(Mutex mutex, Duration timeout, BooleanSupplier predicate)
            throws InterruptedException {
        if (Direct.inDirectBody()) {
            return Direct.await(await(mutex, timeout, predicate));
        }
        return awaitThread(mutex, predicate, Durations.nonNegativeNanos(timeout, "ConditionVariable.awaitBlocking timeout"));
    }

    /** Wakes the oldest waiter, if any. Callable from any thread or job; best made holding the mutex. */
    public void signal() {
        waiters.lock();
        Cont<?> k = waiters.pollLocked();
        Engine engine = waiters.plainEngineLocked();
        waiters.unlock();
        if (k != null) {
            WaitQueue.resume(k, null, engine);
        }
    }

    /** Wakes every waiter. Callable from any thread or job; best made holding the mutex. */
    public void signalAll() {
        waiters.lock();
        Cont<?> all = waiters.pollAllLocked();
        Engine engine = waiters.plainEngineLocked();
        waiters.unlock();
        WaitQueue.resumeAll(all, null, engine);
    }

    /** Waiters currently linked (for tests). */
    int waiterCount() {
        return waiters.waiting();
    }

    @Override
    public String toString() {
        return Waits.label(this, "ConditionVariable", name) + "[waiters=" + waiters.waiting() + "]";
    }

    // ---------------------------------------------------------------- threads

    private boolean awaitThread(Mutex mutex, BooleanSupplier predicate, long nanos) throws InterruptedException {
        requireHeld(mutex, predicate);
        long deadline = nanos < 0 ? 0 : System.nanoTime() + nanos;
        boolean checked = false;
        while (true) {
            if (predicate.getAsBoolean()) {
                return true;
            }
            long left = nanos < 0 ? -1 : deadline - System.nanoTime();
            if (nanos >= 0 && left <= 0) {
                return false;
            }
            if (!checked) {
                Waits.checkMayBlock(this, "ConditionVariable.awaitBlocking()", "await(mutex, predicate)");
                checked = true;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            ThreadWaiter t = new ThreadWaiter();
            waiters.lock();
            waiters.addLocked(t);
            waiters.unlock();
            mutex.unlock();
            try {
                t.await(waiters, left, true);
            } catch (InterruptedException e) {
                mutex.lockUninterruptibly();
                throw e;
            }
            mutex.lockUninterruptibly();
        }
    }

    private void requireHeld(Mutex mutex, BooleanSupplier predicate) {
        Objects.requireNonNull(mutex, "mutex");
        Objects.requireNonNull(predicate, "predicate");
        if (!mutex.isLocked()) {
            throw new IllegalStateException("waiting on " + this + " needs " + mutex + " held by the caller");
        }
    }

    // ---------------------------------------------------------------- fibers

    /** {@link #await(Mutex, BooleanSupplier)} and the timed form; {@code R} is Void or Boolean. */
    private final class WaitBody<R> extends JobImpl<R> {
        private final Mutex mutex;
        private final BooleanSupplier predicate;
        private final boolean timed;
        private final long nanos;

        WaitBody(Mutex mutex, BooleanSupplier predicate, boolean timed, long nanos) {
            this.mutex = Objects.requireNonNull(mutex, "mutex");
            this.predicate = Objects.requireNonNull(predicate, "predicate");
            this.timed = timed;
            this.nanos = nanos;
        }

        @Override
        public void doJob(Worker w, Cont<R> k) {
            if (!mutex.isLocked()) {
                Waits.fail(w, k, new IllegalStateException(
                        "waiting on " + ConditionVariable.this + " needs " + mutex + " held by the fiber"));
                return;
            }
            Engine engine = w.engine();
            long deadline = timed ? engine.nanoTime() + nanos : 0;
            new Wait<>(k, waiters, engine, mutex, predicate, timed, deadline).check(w);
        }
    }

    /** One fiber's wait, reused across the rounds of its loop. */
    private static final class Wait<R> extends TimedWaiter<Void> {
        private final Cont<R> k;
        private final Mutex mutex;
        private final BooleanSupplier predicate;
        private final boolean timed;
        private final long deadline;

        Wait(Cont<R> k, WaitQueue queue, Engine engine, Mutex mutex, BooleanSupplier predicate, boolean timed,
             long deadline) {
            super(k.fiber, queue, engine);
            this.k = k;
            this.mutex = mutex;
            this.predicate = predicate;
            this.timed = timed;
            this.deadline = deadline;
        }

        /** Holding the mutex: finish if the predicate holds or time is up, else wait a round. */
        void check(Worker w) {
            boolean ok;
            try {
                ok = predicate.getAsBoolean();
            } catch (Throwable e) {
                Waits.fail(w, k, e);
                return;
            }
            if (ok || timed && engine.nanoTime() - deadline >= 0) {
                finish(w, ok);
                return;
            }
            if (Waits.cancelled(w, k)) {
                return;
            }
            queue.lock();
            if (!linkLocked(timed, deadline)) {
                Waits.fail(w, k, new IllegalStateException("cannot wait with a timeout: the scheduler is closed"));
                return;
            }
            mutex.unlock(); // after linking: a signal made under the mutex from now on finds us
            checkCancelled(w);
        }

        @SuppressWarnings("unchecked")
        private void finish(Worker w, boolean ok) {
            Waits.succeed(w, k, timed ? (R) Boolean.valueOf(ok) : null);
        }

        /** Signalled: continue on the fiber's own scheduler, where the re-lock and predicate run. */
        @Override
        void wake(Object v) {
            disarm();
            value = null;
            engine.submit(this);
        }

        @Override
        public void doCont(Worker w, Void ignored) {
            relock(w, null);
        }

        @Override
        void expired(Worker w) {
            relock(w, null);
        }

        /** Withdrawn by cancellation: re-lock, then end cancelled. */
        @Override
        public void doHandle(Worker w, Throwable e) {
            disarm();
            relock(w, e);
        }

        private void relock(Worker w, Throwable failure) {
            Relock r = new Relock(this, failure);
            if (mutex.acquireOrLink(r, false)) {
                r.locked(w);
            }
        }
    }

    /** A wait re-locking its mutex: nobody can cancel it (no fiber), so the wait always ends holding it. */
    private static final class Relock extends Waiter<Void> {
        private final Wait<?> wait;
        private final Throwable failure;

        Relock(Wait<?> wait, Throwable failure) {
            super(null);
            this.wait = wait;
            this.failure = failure;
        }

        @Override
        void wake(Object v) {
            value = null;
            wait.engine.submit(this);
        }

        @Override
        public void doCont(Worker w, Void ignored) {
            locked(w);
        }

        void locked(Worker w) {
            if (failure == null) {
                wait.check(w);
            } else {
                Waits.fail(w, wait.k, failure);
            }
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            Waits.fail(w, wait.k, e);
        }

        /** The mutex's owner after the hand-over: the waiting fiber. */
        @Override
        Object identity() {
            return wait.fiber;
        }
    }
}
