package dev.spindle.sync;

import dev.spindle.Alt;
import dev.spindle.Direct;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.select.LockedWait;
import dev.spindle.internal.select.LockedWaitQueue;
import java.util.function.BooleanSupplier;

/**
 * A wait that completes once a condition holds and takes nothing (a wait group's count at zero, a ticket
 * called), in its three forms: a choose's alternative or a plain job ({@link #alt()}), and a thread's
 * blocking call ({@link #awaitBlocking}). The condition is read without the lock first, since once it holds
 * it stays so until the primitive's next round, and a waiter seeing it true takes nothing that needs the
 * lock.
 */
final class OpenWait extends LockedWait<Void> {
    private final BooleanSupplier open;
    private final Object primitive;
    private final Alt<Void> alt = Bridge.alt(this);

    /** A wait in {@code queue} of {@code primitive} that completes when {@code open} holds. */
    OpenWait(LockedWaitQueue queue, Object primitive, BooleanSupplier open) {
        super(queue);
        this.primitive = primitive;
        this.open = open;
    }

    /** The wait as an alternative (and so a job). */
    Alt<Void> alt() {
        return alt;
    }

    /**
     * The blocking form, named {@code operation} in errors: suspends a direct body's fiber, returns at once
     * when the condition holds, else blocks the calling thread (interruptibly) where it may block.
     */
    void awaitBlocking(String operation) throws InterruptedException {
        if (Direct.inDirectBody()) {
            Direct.await(alt);
            return;
        }
        if (open.getAsBoolean()) {
            return;
        }
        Waits.checkMayBlock(primitive, operation, "await()");
        awaitThread(-1, true);
    }

    @Override
    protected boolean completeWithoutLock() {
        return open.getAsBoolean();
    }

    @Override
    protected boolean readyLocked(Object who) {
        return open.getAsBoolean();
    }

    @Override
    protected Void takeLocked(Object who) {
        return null;
    }

    @Override
    public String toString() {
        return "await of " + primitive;
    }
}
