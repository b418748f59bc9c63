package dev.spindle.sync;

import dev.spindle.internal.select.LockedWait;
import dev.spindle.internal.select.LockedWaitQueue;
import java.util.function.BooleanSupplier;

/**
 * A wait that completes once a condition holds and takes nothing (a wait group's count at zero, a ticket
 * called): the condition is read without the lock first, since once it holds it stays so until the
 * primitive's next round, and a waiter seeing it true takes nothing that needs the lock.
 */
final class OpenWait extends LockedWait<Void> {
    private final BooleanSupplier open;
    private final Object primitive;

    /** A wait in {@code queue} of {@code primitive} that completes when {@code open} holds. */
    OpenWait(LockedWaitQueue queue, Object primitive, BooleanSupplier open) {
        super(queue);
        this.primitive = primitive;
        this.open = open;
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
