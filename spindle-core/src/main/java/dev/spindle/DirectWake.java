package dev.spindle;

import dev.spindle.internal.run.StopCondition;
import dev.spindle.internal.run.Worker;
import java.util.concurrent.locks.LockSupport;

/**
 * Wakes a thread waiting for the fiber a direct body awaits: a parked virtual thread, or a worker
 * thread running other work meanwhile ({@link dev.spindle.internal.run.Engine#await}). Belongs to no fiber.
 */
final class DirectWake<A> extends Callback<A> implements StopCondition {
    private final Thread waiter = Thread.currentThread();
    private volatile boolean done;

    @Override
    void onDone(Worker w) {
        done = true;
        LockSupport.unpark(waiter);
    }

    @Override
    public boolean isStopped() {
        return done;
    }

    /** Parks until {@link #onDone}; interrupts do not end the wait (cancellation does, through the fiber). */
    void await() {
        while (!done) {
            LockSupport.park(this);
        }
    }
}
