package dev.spindle.sync;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Strand;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Helpers shared by the primitives: continuing jobs, argument checks, the worker-thread guard, names. */
final class Waits {
    /**
     * Timers armed by timed waits of this package and not yet fired or cancelled. Updated only inside
     * {@code assert} statements, so it costs nothing unless assertions are on (tests run with -ea).
     */
    private static volatile int liveTimers;

    private Waits() {
    }

    // ---------------------------------------------------------------- continuing jobs

    static <A> void succeed(Worker w, Cont<A> k, A a) {
        Trampoline.succeed(w, k, a);
    }

    static void fail(Worker w, Cont<?> k, Throwable e) {
        Trampoline.fail(w, k, e);
    }

    static void failCancelled(Worker w, Cont<?> k) {
        Trampoline.failCancelled(w, k);
    }

    /** When {@code k}'s fiber has a cancellation pending, fails {@code k} with it and returns true. */
    static boolean cancelled(Worker w, Cont<?> k) {
        Strand<?> s = k.fiber;
        if (s != null && s.cancelPending()) {
            Trampoline.failCancelled(w, k);
            return true;
        }
        return false;
    }

    // ---------------------------------------------------------------- arguments

    static void requireNonNegative(int n, String what) {
        if (n < 0) {
            throw new IllegalArgumentException(what + " must not be negative, was " + n);
        }
    }

    // ---------------------------------------------------------------- the worker-thread guard

    /**
     * Fails when the calling thread is running Spindle fibers: a blocking call there would stop that worker
     * from running the fibers that could wake it (on a single-threaded scheduler: all of them). Called by
     * the blocking forms only when they are about to park, so its cost (a stack walk outside worker
     * threads) is paid on the slow path.
     */
    static void checkMayBlock(Object primitive, String operation, String jobForm) {
        if (Worker.currentThreadRunsFibers()) {
            throw new IllegalStateException(operation + " on " + primitive + " would block a thread that runs"
                    + " Spindle fibers, which then could not run the fiber that wakes it; inside a job use the"
                    + " job form " + jobForm + " instead");
        }
    }

    // ---------------------------------------------------------------- names

    /** {@code Type "name"} or {@code Type@hash}: the head of every primitive's toString. */
    static String label(Object primitive, String type, String name) {
        return name != null
                ? type + " \"" + name + "\""
                : type + "@" + Integer.toHexString(System.identityHashCode(primitive));
    }

    /** A short name for a waiter or holder: never the fiber's own toString, which names its blocker. */
    static String nameOf(Object identity) {
        if (identity instanceof Thread t) {
            return "thread \"" + t.getName() + "\"";
        }
        if (identity == null) {
            return "unknown";
        }
        return "fiber@" + Integer.toHexString(System.identityHashCode(identity));
    }

    // ---------------------------------------------------------------- timer accounting (assertions only)

    static boolean timerArmed() {
        LIVE_TIMERS.getAndAdd(1);
        return true;
    }

    static boolean timerGone() {
        LIVE_TIMERS.getAndAdd(-1);
        return true;
    }

    /** Timers of this package still pending (exact only with assertions enabled; else 0). */
    static int liveTimers() {
        return liveTimers;
    }

    private static final VarHandle LIVE_TIMERS;

    static {
        try {
            LIVE_TIMERS = MethodHandles.lookup().findStaticVarHandle(Waits.class, "liveTimers", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
