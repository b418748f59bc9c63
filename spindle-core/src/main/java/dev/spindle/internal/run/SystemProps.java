package dev.spindle.internal.run;

/** Tuning constants read once from system properties, so stress tests can shrink them (Kotlin's systemProp). */
public final class SystemProps {
    private SystemProps() {
    }

    /** The integer system property {@code name}, or {@code dflt} when unset; fails on a non-positive value. */
    public static int intProp(String name, int dflt) {
        String v = System.getProperty(name);
        if (v == null) {
            return dflt;
        }
        int n;
        try {
            n = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("system property " + name + " must be an integer, was '" + v + "'", e);
        }
        if (n <= 0) {
            throw new IllegalArgumentException("system property " + name + " must be positive, was " + n);
        }
        return n;
    }
}
