package dev.spindle.bench.workloads;

import dev.spindle.Scheduler;
import java.util.List;

/**
 * A workload whose only metric is time: the whole run in milliseconds ({@link Metric#WALL_MS}), or the run
 * divided by its size in nanoseconds per operation ({@link Metric#perOpNanos}). Subclasses implement the
 * three runtimes as methods that do the work and return the checksum; this class times them.
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
        long start = System.nanoTime();
        long check = spindle(scheduler, (int) size);
        return sample(System.nanoTime() - start, size, check);
    }

    @Override
    public final Sample runVt(long size) throws Exception {
        long start = System.nanoTime();
        long check = vt((int) size);
        return sample(System.nanoTime() - start, size, check);
    }

    @Override
    public final Sample runCf(long size) throws Exception {
        long start = System.nanoTime();
        long check = cf((int) size);
        return sample(System.nanoTime() - start, size, check);
    }

    /** Does the work once with Spindle and returns the checksum. */
    protected abstract long spindle(Scheduler scheduler, int size) throws Exception;

    /** Does the work once with virtual threads and returns the checksum. */
    protected abstract long vt(int size) throws Exception;

    /** Does the work once with {@code CompletableFuture} and returns the checksum. */
    protected abstract long cf(int size) throws Exception;

    private Sample sample(long nanos, long size, long check) {
        double value = metric.equals(Metric.WALL_MS) ? nanos / 1e6 : (double) nanos / size;
        return new Sample(check, value);
    }
}
