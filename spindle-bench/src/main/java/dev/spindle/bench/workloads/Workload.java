package dev.spindle.bench.workloads;

import dev.spindle.Scheduler;
import java.util.List;

/**
 * One benchmark workload of docs/benchmark-notebook.md ("Workloads"), implemented once per runtime. A run
 * does the whole workload once at the given size and returns its {@link Sample}; the runner warms up,
 * repeats and takes medians. Implementations keep no state between runs.
 *
 * <p>Every implementation starts its work from inside its runtime (a fiber, a virtual thread, a pool task),
 * so that each runtime spawns from the place where spawning is cheapest for it.
 */
public interface Workload {
    /** The name used on the command line and in the {@code RESULT} line, e.g. {@code skynet}. */
    String name();

    /** The size of the standard run (leaves, round trips, hops, fibers, messages or {@code n}). */
    long defaultSize();

    /**
     * The size of a run whose work is about {@code scale} times the default's (for quick runs and smoke
     * tests); at least the smallest meaningful size.
     */
    default long scaledSize(double scale) {
        return Math.max(1, Math.round(defaultSize() * scale));
    }

    /** Throws {@link IllegalArgumentException} when the workload cannot run at {@code size}. */
    default void checkSize(long size) {
        if (size < 1 || size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(name() + ": size must be in [1, " + Integer.MAX_VALUE + "], was "
                    + size);
        }
    }

    /** Anything about how the implementations run that the log should show (empty when nothing). */
    default String notes() {
        return "";
    }

    /** What a run reports, in the order of {@link Sample#values()}. */
    List<Metric> metrics();

    /** The checksum every correct run at {@code size} computes. */
    long expectedCheck(long size);

    /** Runs the workload once with Spindle on {@code scheduler}, combinators style ({@code flatMap} chains). */
    Sample runSpindle(Scheduler scheduler, long size) throws Exception;

    /**
     * Runs the workload once with Spindle on {@code scheduler}, direct style: every fiber is a
     * {@code Job.direct} body of plain Java that calls {@code job.await()} where it waits.
     */
    Sample runSpindleDirect(Scheduler scheduler, long size) throws Exception;

    /** Runs the workload once with JDK virtual threads. */
    Sample runVt(long size) throws Exception;

    /** Runs the workload once with {@code CompletableFuture} on the common pool, asynchronously. */
    Sample runCf(long size) throws Exception;
}
