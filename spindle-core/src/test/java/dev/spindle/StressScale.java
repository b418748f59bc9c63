package dev.spindle;

import dev.spindle.test.fixture.Patience;

/**
 * The one size knob of the stress lane: every {@code @Tag("stress")} test takes its rounds, iterations and
 * invocations through {@link #of}, so the same code paths run at the full size ({@code bin/test -Pstress},
 * factor 1) or shrunk for CI ({@code -Pstress-ci}). The factor is the system property
 * {@code spindle.stress.scale}: a positive decimal, default 1, below 1 to shrink and above 1 to grow.
 *
 * <p>Lincheck tests are scaled through {@link LincheckOptions}; a test that sizes its own loop calls
 * {@link #of} on its full-size count.
 */
public final class StressScale {
    /** The system property that holds the factor. */
    public static final String PROPERTY = "spindle.stress.scale";
    /** The factor every stress size is multiplied by, read once. */
    public static final double FACTOR = parse(System.getProperty(PROPERTY, "1"));

    private StressScale() {
    }

    /** {@code full} times the factor, rounded, and at least 1: a shrunk loop still runs its body. */
    public static int of(int full) {
        return scaled(full, FACTOR);
    }

    /** A note on the factor for failure messages and reports, e.g. {@code "scale 0.1"}. */
    public static String describe() {
        return "scale " + FACTOR + " (-D" + PROPERTY + ")";
    }

    static int scaled(int full, double factor) {
        if (full < 1) {
            throw new IllegalArgumentException("a stress size must be positive, was " + full);
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round(full * factor)));
    }

    /** The factor in {@code text}; fails unless it is a positive finite number. */
    static double parse(String text) {
        return Patience.parseFactor(PROPERTY, text);
    }
}
