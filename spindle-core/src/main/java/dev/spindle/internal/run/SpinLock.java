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
                spins = backOff(spins);
            }
        } while (!handle.compareAndSet(owner, 0, 1));
    }

    /**
     * Acquires a lock word that also carries its owner's state: CAS from {@code free} to {@code held},
     * waiting while another holder has it. Gives up, returning false, once the word holds any third value:
     * a final state after which there is nothing left to guard. The failing read is an acquire, so the
     * caller sees what was written before that state was stored.
     */
    public static boolean lockWhile(VarHandle handle, Object owner, int free, int held) {
        int spins = 0;
        while (true) {
            int v = (int) handle.getAcquire(owner);
            if (v == held) {
                spins = backOff(spins);
            } else if (v != free) {
                return false;
            } else if (handle.compareAndSet(owner, free, held)) {
                return true;
            }
        }
    }

    private static int backOff(int spins) {
        if (spins < 64) {
            Thread.onSpinWait();
        } else {
            Thread.yield(); // the holder was descheduled: give it the core
        }
        return spins + 1;
    }

    /** Releases the lock word {@code handle} of {@code owner}. */
    public static void unlock(VarHandle handle, Object owner) {
        handle.setRelease(owner, 0);
    }

    /**
     * Creates the VarHandle of an {@code int} field (a lock word, or a state word guarded by one), failing
     * class initialisation if it is missing.
     */
    public static VarHandle handle(java.lang.invoke.MethodHandles.Lookup lookup, Class<?> owner, String field) {
        try {
            return lookup.findVarHandle(owner, field, int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
