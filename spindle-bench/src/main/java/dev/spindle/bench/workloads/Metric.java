package dev.spindle.bench.workloads;

import java.util.Objects;

/**
 * One reported figure of a workload: printed as {@code name=value unit} in the {@code RESULT} line. Lower is
 * better for every metric the workloads report.
 *
 * @param name the metric's name, e.g. {@code wall} or {@code per_rt}
 * @param unit its unit, e.g. {@code ms}, {@code ns} or {@code bytes}
 */
public record Metric(String name, String unit) {
    /** Wall-clock time of one whole run, in milliseconds. */
    public static final Metric WALL_MS = new Metric("wall", "ms");

    /** Validates the parts. */
    public Metric {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(unit, "unit");
    }

    /** Nanoseconds of wall-clock time per operation: one run's time divided by its operation count. */
    public static Metric perOpNanos(String name) {
        return new Metric(name, "ns");
    }
}
