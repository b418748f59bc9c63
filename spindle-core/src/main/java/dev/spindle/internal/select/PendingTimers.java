package dev.spindle.internal.select;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counts the timers of {@code Alt.after} (and so of every timed wait) armed and not yet fired or removed,
 * for leak checks in tests. Updated only inside {@code assert} statements: it costs nothing unless
 * assertions are on (tests run with -ea), and then it is exact.
 */
public final class PendingTimers {
    private static volatile int live;

    private PendingTimers() {
    }

    /** A timer was armed. Returns true, for use in an {@code assert}. */
    public static boolean armed() {
        LIVE.getAndAdd(1);
        return true;
    }

    /** A timer fired or was removed. Returns true, for use in an {@code assert}. */
    public static boolean gone() {
        LIVE.getAndAdd(-1);
        return true;
    }

    /** Timers pending now (0 unless assertions are enabled). */
    public static int live() {
        return live;
    }

    private static final VarHandle LIVE;

    static {
        try {
            LIVE = MethodHandles.lookup().findStaticVarHandle(PendingTimers.class, "live", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
