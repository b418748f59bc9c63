package dev.spindle.internal.select;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.StepTail;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;

/**
 * A waiting operation of a primitive guarded by a {@link LockedWaitQueue} (a lock, a permit, a signal, a
 * count reaching zero, a place in a pool), in all three forms: an alternative of a choose
 * ({@link #tryAlt}), a plain job ({@link #doJob}, allocation-free: the fiber's continuation is the queue
 * entry; as the first job of a step it answers at once when it can, {@link #doJobNow}) and a blocking
 * call of an ordinary thread ({@link #awaitThread}). A subclass says, under the queue's lock, whether the
 * operation can complete now ({@link #readyLocked}) and what completing takes ({@link #takeLocked}); the
 * primitive's granting side takes committed entries with
 * {@link WaitQueue#pollCommitted} (or {@link WaitQueue#drain} and {@link Waiter#releaseAll}) and resumes
 * them with {@link Waiter#release}.
 *
 * <pre>
 * Why a losing alternative takes nothing
 * ======================================
 *   ready now:  under the queue lock, commitSelf(i) first, then takeLocked: the commit and the take are one
 *               critical section, and a pick already decided (another alternative won) takes nothing.
 *   must wait:  a Waiter (pick, number) is linked; the granter commits the waiter's pick (Waiter.commit,
 *               under the queue lock) before it hands the resource over, so a stale waiter is skipped and
 *               the resource goes to the next entry, or back to the primitive's state.
 * </pre>
 *
 * @param <A> the value the operation gives
 */
public abstract class LockedWait<A> extends AltImpl<A> {
    /** What {@link #tryNow} returns when the operation cannot complete without waiting. */
    public static final Object NOT_READY = new Object() {
        @Override
        public String toString() {
            return "NOT_READY";
        }
    };

    /** The queue whose lock guards the primitive's state, and where waiters wait. */
    protected final LockedWaitQueue queue;

    /** An operation waiting in {@code queue}. */
    protected LockedWait(LockedWaitQueue queue) {
        this.queue = queue;
    }

    /**
     * Under the lock: whether the operation can complete now for {@code who} (the fiber, or the thread of a
     * blocking call). May throw an unchecked exception to fail the operation (a mutex's self-deadlock).
     */
    protected abstract boolean readyLocked(Object who);

    /** Under the lock, once {@link #readyLocked} said yes and the operation committed: takes the resource. */
    protected abstract A takeLocked(Object who);

    /**
     * Without the lock: true when the operation is complete for sure and completing takes nothing (a
     * manual event seen signalled, a count seen zero); it then gives null. By default false.
     */
    protected boolean completeWithoutLock() {
        return false;
    }

    @Override
    @SuppressWarnings("unchecked")
    public final void doJob(Worker w, Cont<A> k) {
        Object a = doJobNow(w, null, k);
        if (a != StepTail.LATER) {
            Trampoline.succeed(w, k, (A) a);
        }
    }

    /** Answers at once when it can (under one lock: the check, and either the take or the wait). */
    @Override
    public final <B> Object doJobNow(Worker w, StepTail<A, B> step, Cont<B> k) {
        if (completeWithoutLock()) {
            return null;
        }
        FiberBase<?> self = k.fiber();
        if (self.cancelPending()) {
            Trampoline.failCancelled(w, k);
            return StepTail.LATER;
        }
        queue.lock();
        boolean ready;
        try {
            ready = readyLocked(self);
        } catch (RuntimeException e) {
            queue.unlock();
            Trampoline.fail(w, k, e);
            return StepTail.LATER;
        }
        if (ready) {
            A a = takeLocked(self);
            queue.unlock();
            return a;
        }
        queue.blockAndUnlock(w, self, StepTail.contFor(step, k));
        return StepTail.LATER;
    }

    @Override
    public final void tryAlt(Worker w, int i, Cont<A> k, Else e) {
        Pick pk = e.pick;
        if (completeWithoutLock()) {
            commitNow(w, i, k, pk, null);
            return;
        }
        queue.lock();
        boolean ready;
        try {
            ready = readyLocked(pk.fiber());
        } catch (RuntimeException error) {
            queue.unlock();
            pk.fail(w, error);
            return;
        }
        if (!ready) {
            queue.add(new Waiter<>(k, pk, i, null));
            queue.unlock();
            e.tryElse(w, i + 1);
            return;
        }
        if (!pk.commitSelf(i)) {
            queue.unlock(); // another alternative won meanwhile: take nothing
            pk.instantiated(w);
            return;
        }
        A a = takeLocked(pk.fiber());
        queue.unlock();
        pk.fireListeners(w);
        Trampoline.succeed(w, k, a);
    }

    private static <A> void commitNow(Worker w, int i, Cont<A> k, Pick pk, A a) {
        if (pk.commitSelf(i)) {
            pk.fireListeners(w);
            Trampoline.succeed(w, k, a);
        } else {
            pk.instantiated(w);
        }
    }

    /**
     * Completes the operation for {@code who} if it can without waiting: its value, or {@link #NOT_READY}.
     * Throws what {@link #readyLocked} throws.
     */
    public final Object tryNow(Object who) {
        queue.lock();
        try {
            return readyLocked(who) ? takeLocked(who) : NOT_READY;
        } finally {
            queue.unlock();
        }
    }

    /**
     * Blocks the calling thread until the operation completes, and gives its value: at once when it can,
     * else as a {@link ThreadWaiter} (see {@link ThreadWaiter#await} for {@code timeoutNanos},
     * {@code interruptible} and {@link ThreadWaiter#TIMED_OUT}). Throws what {@link #readyLocked} throws.
     */
    public final Object awaitThread(long timeoutNanos, boolean interruptible) throws InterruptedException {
        Thread self = Thread.currentThread();
        ThreadWaiter t;
        queue.lock();
        try {
            if (readyLocked(self)) {
                return takeLocked(self);
            }
            t = new ThreadWaiter();
            queue.add(t);
        } finally {
            queue.unlock();
        }
        return t.await(queue, timeoutNanos, interruptible);
    }
}
