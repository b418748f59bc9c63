package dev.spindle.internal.run;

import java.time.Duration;
import java.util.Objects;

/** Checks and converts the durations users give to sleeps, timeouts and timed waits. */
public final class Durations {
    /**
     * The longest wait in nanoseconds: about 146 years, far beyond any real wait, and small enough that a
     * clock reading plus it never overflows (a deadline in the past would fire at once).
     */
    public static final long MAX_NANOS = Long.MAX_VALUE / 2;

    private Durations() {
    }

    /**
     * {@code d} in nanoseconds, at most {@link #MAX_NANOS}.
     *
     * @throws NullPointerException naming {@code what} if {@code d} is null
     * @throws IllegalArgumentException naming {@code what} if {@code d} is negative
     */
    public static long nonNegativeNanos(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative()) {
            throw new IllegalArgumentException(what + " must not be negative, was " + d);
        }
        try {
            return Math.min(d.toNanos(), MAX_NANOS);
        } catch (ArithmeticException overflow) {
            return MAX_NANOS;
        }
    }
}
