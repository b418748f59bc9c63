package dev.spindle.bench;

/**
 * How many runs the runner makes, read from system properties: {@code spindle.bench.warmups} (default
 * {@value #DEFAULT_WARMUPS}, untimed), {@code spindle.bench.runs} (default {@value #DEFAULT_RUNS}, timed;
 * the median is reported) and {@code spindle.bench.scale} (default 1: the size used when none is given is
 * the workload's default size scaled by it, see {@code Workload.scaledSize}).
 *
 * @param warmups untimed runs first
 * @param runs timed runs
 * @param scale size scale for runs without an explicit size
 */
public record Settings(int warmups, int runs, double scale) {
    static final int DEFAULT_WARMUPS = 3;
    static final int DEFAULT_RUNS = 5;

    /** Validates the counts. */
    public Settings {
        if (warmups < 0 || runs < 1 || !(scale > 0)) {
            throw new IllegalArgumentException("need warmups >= 0, runs >= 1, scale > 0; got " + warmups + ", "
                    + runs + ", " + scale);
        }
    }

    /** The settings the system properties ask for. */
    public static Settings fromSystemProperties() {
        return new Settings(
                Integer.getInteger("spindle.bench.warmups", DEFAULT_WARMUPS),
                Integer.getInteger("spindle.bench.runs", DEFAULT_RUNS),
                Double.parseDouble(System.getProperty("spindle.bench.scale", "1")));
    }
}
