package dev.spindle.bench;

/**
 * How many runs the runner makes, read from system properties: {@code spindle.bench.warmups} (default
 * {@value #DEFAULT_WARMUPS}: at least this many untimed runs), {@code spindle.bench.warmupSeconds} (default
 * {@value #DEFAULT_WARMUP_SECONDS}: untimed runs go on until they have taken at least this long, up to
 * {@value #MAX_WARMUPS} of them), {@code spindle.bench.runs} (default {@value #DEFAULT_RUNS}, timed; the
 * median is reported) and {@code spindle.bench.scale} (default 1: the size used when none is given is the
 * workload's default size scaled by it, see {@code Workload.scaledSize}).
 *
 * <p>Why a warm-up time as well as a count: a workload whose run takes 50 ms gets a quarter of a second of
 * warm-up from three runs, less than the JIT needs on two cores (its compiler threads compete with the
 * workers); the timed runs would then measure compilation. Every implementation gets the same rule.
 *
 * @param warmups untimed runs first, at least
 * @param warmupSeconds untimed runs first go on until they have taken this long (at most MAX_WARMUPS)
 * @param runs timed runs
 * @param scale size scale for runs without an explicit size
 */
public record Settings(int warmups, double warmupSeconds, int runs, double scale) {
    static final int DEFAULT_WARMUPS = 3;
    static final double DEFAULT_WARMUP_SECONDS = 2;
    static final int MAX_WARMUPS = 100;
    static final int DEFAULT_RUNS = 5;

    /** Validates the counts. */
    public Settings {
        if (warmups < 0 || warmups > MAX_WARMUPS || !(warmupSeconds >= 0) || runs < 1 || !(scale > 0)) {
            throw new IllegalArgumentException("need 0 <= warmups <= " + MAX_WARMUPS + ", warmupSeconds >= 0, "
                    + "runs >= 1, scale > 0; got " + warmups + ", " + warmupSeconds + ", " + runs + ", " + scale);
        }
    }

    /** Whether another untimed run is due after {@code done} of them, which took {@code elapsedNanos}. */
    boolean warmUpMore(int done, long elapsedNanos) {
        return done < warmups || (done < MAX_WARMUPS && elapsedNanos < warmupSeconds * 1e9);
    }

    /** The settings the system properties ask for. */
    public static Settings fromSystemProperties() {
        return new Settings(
                Integer.getInteger("spindle.bench.warmups", DEFAULT_WARMUPS),
                Double.parseDouble(System.getProperty("spindle.bench.warmupSeconds",
                        Double.toString(DEFAULT_WARMUP_SECONDS))),
                Integer.getInteger("spindle.bench.runs", DEFAULT_RUNS),
                Double.parseDouble(System.getProperty("spindle.bench.scale", "1")));
    }
}
