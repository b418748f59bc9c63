package dev.spindle.sync;

import dev.spindle.Alt;
import dev.spindle.Direct;
import dev.spindle.Job;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Durations;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.AltImpl;
import dev.spindle.internal.select.Else;
import dev.spindle.internal.select.LockedWaitQueue;
import dev.spindle.internal.select.ThreadWaiter;
import dev.spindle.internal.select.Waiter;
import java.time.Duration;
import java.time.Instant;
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
     * A fiber's round is an alternative (SignalWait) whose instantiation links the waiter and then unlocks
     * the mutex; the timed form offers it in choose(round, after(time left)), the shared timed wait. The
     * re-lock is the round's finalizer (uncancelable, and only if the round did unlock), so the mutex is
     * always held when the wait ends and a surrounding withLock unlocks exactly what it locked.
     * A thread's round links a ThreadWaiter, unlocks, parks, and re-locks ignoring interrupts.
     *
     * Why the waits are jobs, not alternatives: a wait releases the mutex as it begins and takes it again as
     * it ends, so offered in a choose it could not lose without an effect (the mutex would have changed
     * hands meanwhile). Only the inner round is an alternative, and only this class offers it.
     *
     * State: only the queue (this class has no other state). A signal commits the oldest waiter it can
     * (a round whose choose timed out is stale and skipped), so a signal is never given to a waiter that
     * no longer waits.
     */

    private final String name;
    private final LockedWaitQueue waiters = new LockedWaitQueue(this);

    /** A condition variable. */
    public ConditionVariable() {
        this(null);
    }

    /**
     * A condition variable named {@code name} in {@code toString} (and so in deadlock reports); may be null.
     *
     * @param name the condition variable's name, or null
     */
    public ConditionVariable(String name) {
        this.name = name;
    }

    /**
     * {@return a job that waits until {@code predicate} holds} The running fiber must hold {@code mutex}; it
     * is released while waiting and held again whenever the predicate runs and when the job ends. Cancellable
     * while it waits (it then re-locks the mutex and ends cancelled).
     *
     * @param mutex the mutex the running fiber holds, released while waiting
     * @param predicate the condition waited for, run holding {@code mutex}
     */
    public Job<Void> await(Mutex mutex, BooleanSupplier predicate) {
        Objects.requireNonNull(mutex, "mutex");
        Objects.requireNonNull(predicate, "predicate");
        return whileHeld(mutex, loop(mutex, predicate, null).then(Job.unit()));
    }

    /**
     * A job that waits at most {@code timeout} until {@code predicate} holds, and gives the predicate's final
     * value (evaluated again, holding the mutex, when the time is up). Otherwise as
     * {@link #await(Mutex, BooleanSupplier)}.
     *
     * @param mutex the mutex the running fiber holds, released while waiting
     * @param timeout how long to wait at most
     * @param predicate the condition waited for, run holding {@code mutex}
     * @return a job that gives whether {@code predicate} held at the end
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public Job<Boolean> await(Mutex mutex, Duration timeout, BooleanSupplier predicate) {
        Objects.requireNonNull(mutex, "mutex");
        Objects.requireNonNull(predicate, "predicate");
        long nanos = Durations.nonNegativeNanos(timeout, "ConditionVariable.await timeout");
        return whileHeld(mutex, Job.now().flatMap(start -> loop(mutex, predicate, start.plusNanos(nanos))));
    }

    /**
     * Blocks the calling thread, which must hold {@code mutex}, until {@code predicate} holds.
     *
     * @param mutex the mutex the calling thread holds, released while waiting
     * @param predicate the condition waited for, run holding {@code mutex}
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
     * @param mutex the mutex the calling thread holds, released while waiting
     * @param timeout how long to wait at most
     * @param predicate the condition waited for, run holding {@code mutex}
     * @return whether {@code predicate} held at the end
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
        Work next = waiters.pollCommitted();
        waiters.unlock();
        if (next != null) {
            Waiter.release(null, next, null);
        }
    }

    /** Wakes every waiter. Callable from any thread or job; best made holding the mutex. */
    public void signalAll() {
        waiters.lock();
        Work all = waiters.drain();
        waiters.unlock();
        Waiter.releaseAll(null, all, null);
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
            waiters.add(t);
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

    /** {@code wait}, failing at once when {@code mutex} is not held. */
    private <R> Job<R> whileHeld(Mutex mutex, Job<R> wait) {
        return Job.defer(() -> mutex.isLocked() ? wait : Job.failure(new IllegalStateException(
                "waiting on " + this + " needs " + mutex + " held by the fiber")));
    }

    /**
     * Holding the mutex: true when the predicate holds; false when {@code deadline} (scheduler clock; null
     * for none) has passed; else one round of waiting and again.
     */
    private Job<Boolean> loop(Mutex mutex, BooleanSupplier predicate, Instant deadline) {
        return Job.of(predicate::getAsBoolean).flatMap(ok -> {
            if (ok) {
                return Job.result(Boolean.TRUE);
            }
            if (deadline == null) {
                return round(mutex, null).then(loop(mutex, predicate, null));
            }
            return Job.now().flatMap(now -> {
                Duration left = Duration.between(now, deadline);
                return left.isNegative() || left.isZero()
                        ? Job.result(Boolean.FALSE)
                        : round(mutex, left).then(loop(mutex, predicate, deadline));
            });
        });
    }

    /**
     * One round: link, unlock the mutex, wait for a signal (at most {@code left} when not null), and re-lock
     * in every outcome in which the round unlocked.
     */
    private Job<Void> round(Mutex mutex, Duration left) {
        return Job.defer(() -> {
            SignalWait round = new SignalWait(mutex);
            Alt<Void> signalled = Bridge.alt(round);
            Job<?> wait = left == null ? signalled : Waits.timed(signalled, left, "ConditionVariable round");
            return wait.then(Job.unit()).ensure(Job.defer(() -> round.unlocked ? mutex.lock() : Job.unit()));
        });
    }

    /** A fiber's round: linked, it unlocks the mutex (linking first: a signal under the mutex finds it). */
    private final class SignalWait extends AltImpl<Void> {
        private final Mutex mutex;
        /** Whether this round unlocked the mutex; written and read on the waiting fiber only. */
        boolean unlocked;

        SignalWait(Mutex mutex) {
            this.mutex = mutex;
        }

        @Override
        public void tryAlt(Worker w, int i, Cont<Void> k, Else e) {
            waiters.lock();
            waiters.add(new Waiter<>(k, e.pick, i, null));
            waiters.unlock();
            try {
                mutex.unlock();
            } catch (IllegalStateException notLocked) {
                e.pick.fail(w, notLocked);
                return;
            }
            unlocked = true;
            e.tryElse(w, i + 1);
        }

        @Override
        public String toString() {
            return "await of " + ConditionVariable.this;
        }
    }
}
