package dev.spindle;

import dev.spindle.internal.run.Worker;
import java.util.concurrent.locks.LockSupport;

/** Parks a direct body's thread until the fiber it awaits has finished. Belongs to no fiber. */
final class DirectWake<A> extends Callback<A> {
    private final Thread waiter = Thread.currentThread();
    private volatile boolean done;

    @Override
    void onDone(Worker w) {
        done = true;
        LockSupport.unpark(waiter);
    }

    /** Parks until {@link #onDone}; interrupts do not end the wait (cancellation does, through the fiber). */
    void await() {
        while (!done) {
            LockSupport.park(this);
        }
    }
}
