package dev.spindle.sync;

import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Strand;
import dev.spindle.internal.run.Timer;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;

/**
 * A fiber waiting in one {@link WaitQueue} with an optional deadline: a timed {@code await}, a condition
 * variable's wait. Subclasses say what waking, expiry and cancellation do.
 *
 * <pre>
 * Who owns the waiter (no double queueing, no lost wake-up)
 * =========================================================
 *   Three parties may end the wait: a waker (signal, notify), the timer, and a canceller. Each must first
 *   unlink the waiter from its queue under the queue's lock; only the one that succeeds continues the
 *   fiber, the others find nothing and do nothing. So a signal racing the deadline resumes the fiber
 *   exactly once, and an expired waiter cannot be woken again (it is no longer linked).
 *
 *   The timer is armed under the queue lock, right after linking, so that no waker can unlink the waiter
 *   before the timer exists (it would then fail to cancel it and leave it pending). Lock order: queue lock,
 *   then the timer queue's lock; the timer thread never takes a queue lock (its work runs on a worker).
 *   The owner that unlinked the waiter disarms the timer (waker, canceller) or was fired by it (expiry):
 *   either way no timer is left behind.
 * </pre>
 *
 * @param <A> the value type when run as work
 */
abstract class TimedWaiter<A> extends Waiter<A> {
    /** The queue the waiter is linked in. */
    final WaitQueue queue;
    /** The engine of the waiting fiber: its clock, its timers, where it resumes. */
    final Engine engine;
    /**
     * The armed timer, or null (untimed, or already disarmed). Written under the queue lock before the
     * waiter can be unlinked; afterwards read and cleared only by the party that unlinked it.
     */
    private Timer timer;

    TimedWaiter(Strand<?> fiber, WaitQueue queue, Engine engine) {
        super(fiber);
        this.queue = queue;
        this.engine = engine;
    }

    /**
     * Blocks here: the caller holds the queue lock and has found that it must wait. Links this waiter, arms
     * a timer for {@code deadline} unless {@code timed} is false, releases the lock and withdraws at once if
     * cancellation arrived meanwhile (the {@link Strand#blockOn} protocol). Returns false, with the lock
     * released and nothing left behind, when the timer could not be armed (the caller fails the wait).
     */
    final boolean blockLocked(Worker w, boolean timed, long deadline) {
        if (!linkLocked(timed, deadline)) {
            return false;
        }
        checkCancelled(w);
        return true;
    }

    /**
     * The first half of {@link #blockLocked}: links, arms and releases the queue lock. The caller must then
     * call {@link #checkCancelled} (a condition variable releases its mutex in between).
     */
    final boolean linkLocked(boolean timed, long deadline) {
        Strand<?> s = fiber;
        if (s != null) {
            s.blockOn(queue);
        }
        queue.addLocked(this);
        if (timed) {
            try {
                Timer t = new Timer(deadline, new Expiry(this));
                engine.timers().schedule(t);
                timer = t;
            } catch (RuntimeException e) { // the scheduler is shutting down
                queue.removeLocked(this);
                queue.unlock();
                return false;
            }
            assert Waits.timerArmed();
        }
        queue.unlock();
        return true;
    }

    /** The second half of {@link #blockLocked}: withdraws at once if cancellation arrived meanwhile. */
    final void checkCancelled(Worker w) {
        Strand<?> s = fiber;
        if (s != null) {
            s.checkCancelWhileBlocked(w, queue);
        }
    }

    /** Cancels the timer, if any. Called once by the waker or canceller that unlinked this waiter. */
    final void disarm() {
        Timer t = timer;
        if (t != null) {
            timer = null;
            engine.timers().cancel(t); // false when it fired meanwhile: its expiry will find the waiter unlinked
            assert Waits.timerGone();
        }
    }

    /** The timer fired (on a worker of {@link #engine}): expire unless someone else took the waiter. */
    private void fire(Worker w) {
        if (queue.remove(this)) {
            timer = null;
            assert Waits.timerGone();
            expired(w);
        }
    }

    /** The deadline passed while this waiter was still queued; it has been unlinked. */
    abstract void expired(Worker w);

    /** The work item the timer queues; separate from the waiter, whose own link belongs to the queue. */
    private static final class Expiry extends Work {
        private final TimedWaiter<?> waiter;

        Expiry(TimedWaiter<?> waiter) {
            this.waiter = waiter;
        }

        @Override
        public void doWork(Worker w) {
            waiter.fire(w);
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            w.engine().reportUncaught(e);
        }
    }
}
