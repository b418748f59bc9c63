package dev.spindle.bench.soak;

import java.time.Duration;
import java.util.Set;

/**
 * The soak's command line: {@code [minutes] [--seed N] [--workers N] [--check-seconds N] [--in-flight N]
 * [--early-cancel-percent P] [--quiesce-seconds N]}.
 *
 * @param minutes how long to run (default {@value #DEFAULT_MINUTES})
 * @param seed seed of the workload's random choices (default: drawn from the clock, and printed)
 * @param workers worker threads of the scheduler (default 4)
 * @param checkInterval time between two rest checks (default 10 s)
 * @param inFlight most episodes running at once (default 64)
 * @param earlyCancelPercent share of the wait-group fan-outs whose tasks are cancelled before their first
 *     step (default 5)
 * @param quiesceLimit longest wait at a rest point for the episodes to end and the engine to be quiescent
 *     (default 30 s); a longer wait is a violation
 */
record SoakOptions(double minutes, long seed, int workers, Duration checkInterval, int inFlight,
        int earlyCancelPercent, Duration quiesceLimit) {
    static final int DEFAULT_MINUTES = 10;
    private static final Set<String> OPTIONS = Set.of("--seed", "--workers", "--check-seconds", "--in-flight",
            "--early-cancel-percent", "--quiesce-seconds");

    /** Parses {@code args}; throws IllegalArgumentException with a message for the user. */
    static SoakOptions parse(String[] args) {
        double minutes = DEFAULT_MINUTES;
        long seed = System.nanoTime();
        int workers = 4;
        int checkSeconds = 10;
        int inFlight = 64;
        int early = 5;
        int quiesceSeconds = 30;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                minutes = positive(a, "minutes");
                continue;
            }
            if (!OPTIONS.contains(a)) {
                throw new IllegalArgumentException("unknown option " + a);
            }
            if (i + 1 == args.length) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            String v = args[++i];
            switch (a) {
                case "--seed" -> seed = parseLong(v, a);
                case "--workers" -> workers = (int) positive(v, a);
                case "--check-seconds" -> checkSeconds = (int) positive(v, a);
                case "--in-flight" -> inFlight = (int) positive(v, a);
                case "--early-cancel-percent" -> early = percent(v, a);
                case "--quiesce-seconds" -> quiesceSeconds = (int) positive(v, a);
                default -> throw new AssertionError(a); // OPTIONS lists every case
            }
        }
        return new SoakOptions(minutes, seed, workers, Duration.ofSeconds(checkSeconds), inFlight, early,
                Duration.ofSeconds(quiesceSeconds));
    }

    /** Number of rest checks: one per check interval, at least one. */
    int checks() {
        return (int) Math.max(1, Math.round(minutes * 60 / checkInterval.toSeconds()));
    }

    /** The usage text. */
    static String usage() {
        return String.join("\n",
                "usage: bin/soak [minutes] [--seed N] [--workers N] [--check-seconds N] [--in-flight N]"
                        + " [--early-cancel-percent P] [--quiesce-seconds N]",
                "  minutes                   how long to run (default " + DEFAULT_MINUTES + "; fractions allowed)",
                "  --seed N                  seed of the workload's random choices (default: from the clock)",
                "  --workers N               worker threads (default 4)",
                "  --check-seconds N         time between rest checks (default 10)",
                "  --in-flight N             most episodes running at once (default 64)",
                "  --early-cancel-percent P  wait-group fan-outs whose tasks are cancelled before their first"
                        + " step (default 5)",
                "  --quiesce-seconds N       longest wait for the workload to come to rest (default 30)");
    }

    private static double positive(String v, String what) {
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + ": not a number: " + v);
        }
        if (!(d > 0)) {
            throw new IllegalArgumentException(what + " must be positive, was " + v);
        }
        return d;
    }

    private static int percent(String v, String what) {
        int p = (int) parseLong(v, what);
        if (p < 0 || p > 100) {
            throw new IllegalArgumentException(what + " must be 0-100, was " + v);
        }
        return p;
    }

    private static long parseLong(String v, String what) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + ": not an integer: " + v);
        }
    }
}
