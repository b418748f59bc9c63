package dev.spindle.internal.select;

import dev.spindle.internal.run.BoundThread;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.StopCondition;
import dev.spindle.internal.run.Worker;
import java.util.concurrent.locks.LockSupport;

/**
 * An ordinary thread waiting in a {@link LockedWaitQueue}: the blocking forms of the primitives
 * ({@code awaitBlocking}, {@code lockBlocking}, ...) link one and park the thread until a waker commits and
 * resumes it ({@link Waiter#resume}). It has no fiber, so cancellation never matches it.
 *
 * <pre>
 * Waking, timeout and interrupt
 * =============================
 *   waker:  unlink under the queue lock; then value = v; woken = true (volatile); unpark(thread)
 *   thread: park until woken; on timeout or interrupt, withdraw by unlinking itself under the queue lock
 *   Exactly one of them unlinks the waiter. A thread that fails to withdraw was woken concurrently: it
 *   waits for woken (a few instructions away), keeps what it was given (a lock, a permit, an item) and
 *   re-asserts the interrupt, so a grant is never lost and never taken twice.
 *   Threads live in real time, so deadlines use System.nanoTime; fibers use their engine's clock.
 *
 * A thread bound to a single-threaded engine (BoundThread) drives that engine where it would park: the
 * drive stops when the waiter is woken or the thread interrupted (the waker's unpark ends an idle drive),
 * or when a timed wait's alarm rings; the loop below then decides exactly as after a park.
 * </pre>
 */
public final class ThreadWaiter extends Cont<Object> implements StopCondition {
    /** What {@link #await} returns when the deadline passed before a waker came. */
    public static final Object TIMED_OUT = new Object() {
        @Override
        public String toString() {
            return "TIMED_OUT";
        }
    };

    private final Thread thread;
    /** Set once by the waker after writing value (release); read by the parked thread (acquire). */
    private volatile boolean woken;

    /** A waiter for the calling thread. */
    public ThreadWaiter() {
        super(null);
        this.thread = Thread.currentThread();
    }

    /** The waiting thread. */
    public Thread thread() {
        return thread;
    }

    /** Resumes the thread with {@code v}. Once, by the waker that unlinked it. */
    void wake(Object v) {
        setResumeValue(v);
        woken = true;
        LockSupport.unpark(thread);
    }

    /**
     * Parks until woken and returns the value given. {@code timeoutNanos < 0} waits without limit; when the
     * deadline passes first this withdraws from {@code queue} and returns {@link #TIMED_OUT}. An interrupt
     * withdraws and throws {@link InterruptedException} when {@code interruptible}, and is otherwise
     * remembered and re-asserted on return. The caller has linked this waiter and released the lock.
     */
    public Object await(LockedWaitQueue queue, long timeoutNanos, boolean interruptible) throws InterruptedException {
        long deadline = timeoutNanos < 0 ? 0 : System.nanoTime() + timeoutNanos;
        boolean interrupted = false;
        while (!woken) {
            if (Thread.interrupted()) {
                interrupted = true;
                if (interruptible) {
                    if (queue.withdraw(this)) {
                        throw new InterruptedException();
                    }
                    break; // a waker took us first: its grant is ours
                }
                continue;
            }
            if (timeoutNanos < 0) {
                pause(-1);
            } else {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    if (queue.withdraw(this)) {
                        if (interrupted) {
                            Thread.currentThread().interrupt();
                        }
                        return TIMED_OUT;
                    }
                    break;
                }
                pause(left);
            }
        }
        while (!woken) { // unlinked by a waker that has yet to publish: a few instructions
            LockSupport.park(this);
            if (Thread.interrupted()) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return resumeValue();
    }

    /**
     * Waits for a wake-up, an interrupt or (when {@code nanos >= 0}) about {@code nanos}, possibly returning
     * early: parks, or drives the engine the thread is bound to.
     */
    private void pause(long nanos) {
        Engine bound = BoundThread.current();
        if (bound != null) {
            BoundThread.drive(bound, this, nanos);
        } else if (nanos < 0) {
            LockSupport.park(this);
        } else {
            LockSupport.parkNanos(this, nanos);
        }
    }

    /** A bound thread's drive stops once this waiter is woken or its thread interrupted. */
    @Override
    public boolean isStopped() {
        return woken || thread.isInterrupted();
    }

    @Override
    public void doCont(Worker w, Object a) {
        throw new IllegalStateException("a thread waiter is never run as work");
    }

    @Override
    public void doHandle(Worker w, Throwable e) {
        throw new IllegalStateException("a thread waiter is never run as work", e);
    }

    @Override
    public String toString() {
        return "waiting thread \"" + thread.getName() + "\"";
    }
}
