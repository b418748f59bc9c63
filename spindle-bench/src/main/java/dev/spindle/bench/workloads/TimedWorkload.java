package dev.spindle.bench.workloads;

import dev.spindle.Scheduler;
import java.util.List;

/**
 * A workload whose only metric is time: the whole run in milliseconds ({@link Metric#WALL_MS}), or the run
 * divided by its size in nanoseconds per operation ({@link Metric#perOpNanos}). Subclasses implement the
 * runtimes as methods that do the work and return the checksum; this class times them.
 */
public abstract class TimedWorkload implements Workload {
    private final String name;
    private final long defaultSize;
    private final Metric metric;

    /** A workload called {@code name} with default size {@code defaultSize} reporting {@code metric}. */
    protected TimedWorkload(String name, long defaultSize, Metric metric) {
        this.name = name;
        this.defaultSize = defaultSize;
        this.metric = metric;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final long defaultSize() {
        return defaultSize;
    }

    @Override
    public final List<Metric> metrics() {
        return List.of(metric);
    }

    @Override
    public final Sample runSpindle(Scheduler scheduler, long size) throws Exception {
        return timed(size, n -> spindle(scheduler, n));
    }

    @Override
    public final Sample runSpindleDirect(Scheduler scheduler, long size) throws Exception {
        return timed(size, n -> spindleDirect(scheduler, n));
    }

    @Override
    public final Sample runVt(long size) throws Exception {
        return timed(size, this::vt);
    }

    @Override
    public final Sample runCf(long size) throws Exception {
        return timed(size, this::cf);
    }

    /** Does the work once with Spindle and returns the checksum. */
    protected abstract long spindle(Scheduler scheduler, int size) throws Exception;

    /** Does the work once with Spindle in direct style and returns the checksum. */
    protected abstract long spindleDirect(Scheduler scheduler, int size) throws Exception;

    /** Does the work once with virtual threads and returns the checksum. */
    protected abstract long vt(int size) throws Exception;

    /** Does the work once with {@code CompletableFuture} and returns the checksum. */
    protected abstract long cf(int size) throws Exception;

    /** One implementation's work at a size: returns the checksum. */
    @FunctionalInterface
    private interface Body {
        long run(int size) throws Exception;
    }

    /** Runs {@code body} once at {@code size}; the sample is its checksum and the time it took. */
    private Sample timed(long size, Body body) throws Exception {
        long start = System.nanoTime();
        long check = body.run((int) size);
        long nanos = System.nanoTime() - start;
        double value = metric.equals(Metric.WALL_MS) ? nanos / 1e6 : (double) nanos / size;
        return new Sample(check, value);
    }
}
