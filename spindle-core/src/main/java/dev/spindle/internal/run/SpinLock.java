package dev.spindle.internal.run;

import java.lang.invoke.VarHandle;

/**
 * Test-and-test-and-set lock on an {@code int} field of the guarded object (Hopac's {@code SpinlockTTAS},
 * kept as a field rather than an object). Critical sections it guards are a few instructions long.
 *
 * <p>Each owner takes and releases its lock in two small methods of its own that use its constant
 * VarHandle in place: a CAS from 0 to 1, then {@link #lockSlow} if that fails; a release store of 0.
 * Memory ordering: the CAS acquires and the release store releases, so everything written inside a
 * critical section is visible to the next holder.
 *
 * <p>Why not a shared {@code lock(handle, owner)}: a VarHandle passed as an argument is fast only where
 * C2 inlines the call and sees the handle as a constant; compiled on its own, the call is the generic
 * VarHandle path (a guard and a method-handle call), and once that compilation exists C2 declines to
 * inline the method elsewhere ("already compiled into a big method"). Whether that happens depends on the
 * run, so a primitive's lock would cost more in some JVMs than in others.
 */
public final class SpinLock {
    private SpinLock() {
    }

    /** The contended path of an owner's lock: spins until the CAS of the lock word {@code handle} succeeds. */
    public static void lockSlow(VarHandle handle, Object owner) {
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

    /** One step of waiting for a holder: spins a while, then yields; returns the next {@code spins}. */
    public static int backOff(int spins) {
        if (spins < 64) {
            Thread.onSpinWait();
        } else {
            Thread.yield(); // the holder was descheduled: give it the core
        }
        return spins + 1;
    }

    /**
     * Creates the VarHandle of an {@code int} field (a lock word, or a state word guarded by one), failing
     * class initialisation if it is missing.
     */
    public static VarHandle handle(java.lang.invoke.MethodHandles.Lookup lookup, Class<?> owner, String field) {
        return handle(lookup, owner, field, int.class);
    }

    /** The handle of {@code owner}'s field {@code field} of type {@code type}, for a static initialiser. */
    public static VarHandle handle(java.lang.invoke.MethodHandles.Lookup lookup, Class<?> owner, String field,
                                   Class<?> type) {
        try {
            return lookup.findVarHandle(owner, field, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
