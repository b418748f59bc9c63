package dev.spindle.bench;

import dev.spindle.bench.workloads.Metric;
import dev.spindle.bench.workloads.Sample;
import dev.spindle.bench.workloads.Workload;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Runs one workload on one runtime: untimed warm-up runs, then timed runs; every run's checksum must be the
 * expected one. Reports the median of each metric over the timed runs (for a metric such as timers'
 * {@code p99_late}, the median of the per-run values). A full GC precedes every run, so garbage of the
 * previous run is not charged to the next.
 */
final class Harness {
    private final Settings settings;
    private final PrintStream log;

    Harness(Settings settings, PrintStream log) {
        this.settings = settings;
        this.log = log;
    }

    /** The outcome of a series: the medians, in the order of the workload's metrics, and the checksum. */
    record Result(Workload workload, Impl impl, double[] medians, long check) {
        /** The {@code RESULT} line of the runner contract. */
        String line() {
            StringBuilder sb = new StringBuilder("RESULT ").append(workload.name()).append(' ').append(impl.id());
            List<Metric> metrics = workload.metrics();
            for (int i = 0; i < metrics.size(); i++) {
                Metric m = metrics.get(i);
                sb.append(' ').append(m.name()).append('=').append(format(medians[i])).append(' ').append(m.unit());
            }
            return sb.append(" check=").append(check).toString();
        }
    }

    /** A run computed a checksum other than the expected one. */
    static final class ChecksumMismatch extends Exception {
        private static final long serialVersionUID = 1L;

        ChecksumMismatch(String message) {
            super(message);
        }
    }

    Result measure(Workload w, Impl impl, long size) throws Exception {
        long expected = w.expectedCheck(size);
        try (Impl.Session session = impl.open()) {
            String notes = w.notes().isEmpty() ? "" : "; " + w.notes();
            log.printf(Locale.ROOT, "# %s %s: size %d, %d+ warm-up runs (%s s or more) + %d timed runs, %s%s%n",
                    w.name(), impl.id(), size, settings.warmups(), format(settings.warmupSeconds()), settings.runs(),
                    session.describe(), notes);
            long warmUpStart = System.nanoTime();
            for (int i = 0; settings.warmUpMore(i, System.nanoTime() - warmUpStart); i++) {
                Sample s = runOnce(session, w, size, expected);
                log.printf(Locale.ROOT, "#   warm-up %d: %s%n", i + 1, describe(w, s));
            }
            double[][] values = new double[w.metrics().size()][settings.runs()];
            for (int r = 0; r < settings.runs(); r++) {
                Sample s = runOnce(session, w, size, expected);
                log.printf(Locale.ROOT, "#   run %d: %s%n", r + 1, describe(w, s));
                for (int m = 0; m < values.length; m++) {
                    values[m][r] = s.value(m);
                }
            }
            double[] medians = new double[values.length];
            for (int m = 0; m < values.length; m++) {
                medians[m] = median(values[m]);
            }
            return new Result(w, impl, medians, expected);
        }
    }

    private static Sample runOnce(Impl.Session session, Workload w, long size, long expected) throws Exception {
        System.gc();
        Sample s = session.run(w, size);
        if (s.check() != expected) {
            throw new ChecksumMismatch(w.name() + ": wrong checksum " + s.check() + ", expected " + expected);
        }
        return s;
    }

    private static String describe(Workload w, Sample s) {
        StringBuilder sb = new StringBuilder();
        List<Metric> metrics = w.metrics();
        for (int i = 0; i < metrics.size(); i++) {
            sb.append(i == 0 ? "" : " ").append(metrics.get(i).name()).append('=').append(format(s.value(i)))
                    .append(' ').append(metrics.get(i).unit());
        }
        return sb.toString();
    }

    /** The median of {@code xs} (the mean of the middle two for an even count). */
    static double median(double[] xs) {
        double[] sorted = xs.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** Three significant figures or more, never exponent notation. */
    static String format(double v) {
        double a = Math.abs(v);
        String pattern = a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f";
        return String.format(Locale.ROOT, pattern, v);
    }
}
