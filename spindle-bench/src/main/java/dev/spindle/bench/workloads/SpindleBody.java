package dev.spindle.bench.workloads;

import dev.spindle.Scheduler;

/**
 * The Spindle implementation of a workload that lives in an optional source root (see
 * {@link OptionalSpindle}): does the work once and returns the checksum. Implementations have a public
 * no-argument constructor.
 */
public interface SpindleBody {
    /** Runs the workload once at {@code size} on {@code scheduler} and returns its checksum. */
    long run(Scheduler scheduler, int size) throws Exception;
}
