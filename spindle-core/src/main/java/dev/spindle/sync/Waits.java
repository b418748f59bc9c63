package dev.spindle.sync;

import dev.spindle.Alt;
import dev.spindle.internal.run.BoundThread;
import dev.spindle.internal.run.Drivers;
import dev.spindle.internal.run.Durations;
import dev.spindle.internal.select.PendingTimers;
import java.time.Duration;

/** Helpers shared by the primitives: composed waits, argument checks, the worker-thread guard, names. */
final class Waits {
    private Waits() {
    }

    // ---------------------------------------------------------------- composed waits

    /**
     * The timed form of a wait: {@code choose(op, after(timeout))}, true when {@code op} was committed to,
     * false when the time ran out first (then {@code op} took nothing). A zero timeout only tests.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    static Alt<Boolean> timed(Alt<?> op, Duration timeout, String what) {
        Durations.nonNegativeNanos(timeout, what);
        Alt<Void> expiry = Alt.after(timeout);
        return Alt.choose(op.wrap(v -> Boolean.TRUE), expiry.wrap(v -> Boolean.FALSE));
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
     * threads) is paid on the slow path. A thread bound to the single-threaded scheduler whose work it runs
     * ({@code Scheduler.bind}) may wait: its wait keeps running that scheduler's work.
     */
    static void checkMayBlock(Object primitive, String operation, String jobForm) {
        if (Drivers.currentThreadRunsFibers() && !BoundThread.drivesItsBinding()) {
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

    /** Timers of {@code Alt.after} (so of every timed wait) still pending (exact only with assertions enabled). */
    static int liveTimers() {
        return PendingTimers.live();
    }
}
