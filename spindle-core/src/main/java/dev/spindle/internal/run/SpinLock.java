package dev.spindle.internal.run;

import java.lang.invoke.VarHandle;

/**
 * Test-and-test-and-set lock on an {@code int} field of the guarded object (Hopac's {@code SpinlockTTAS},
 * kept as a field rather than an object). Critical sections it guards are a few instructions long.
 *
 * <p>Memory ordering: {@link #lock} acquires (CAS), {@link #unlock} releases (setRelease), so everything
 * written inside a critical section is visible to the next holder.
 */
public final class SpinLock {
    private SpinLock() {
    }

    /** Acquires the lock word {@code handle} of {@code owner}. */
    public static void lock(VarHandle handle, Object owner) {
        if (!handle.compareAndSet(owner, 0, 1)) {
            lockSlow(handle, owner);
        }
    }

    private static void lockSlow(VarHandle handle, Object owner) {
        int spins = 0;
        do {
            while ((int) handle.getOpaque(owner) != 0) {
                if (++spins < 64) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield(); // the holder was descheduled: give it the core
                }
            }
        } while (!handle.compareAndSet(owner, 0, 1));
    }

    /** Releases the lock word {@code handle} of {@code owner}. */
    public static void unlock(VarHandle handle, Object owner) {
        handle.setRelease(owner, 0);
    }

    /** Creates the VarHandle of an {@code int} lock field, failing class initialisation if it is missing. */
    public static VarHandle handle(java.lang.invoke.MethodHandles.Lookup lookup, Class<?> owner, String field) {
        try {
            return lookup.findVarHandle(owner, field, int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
