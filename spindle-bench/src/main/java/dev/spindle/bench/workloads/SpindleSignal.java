package dev.spindle.bench.workloads;

import dev.spindle.Job;
import dev.spindle.Scheduler;

/**
 * A one-shot signal that Spindle fibers block on, for {@link IdleMemory}: the {@link GateSignal} (a
 * fiber to join) until core has {@code IVar}, then an {@code IVar} (see {@code src/ivar/java}).
 * One instance per run.
 */
public interface SpindleSignal {
    /**
     * A job, run once by the root fiber before any waiter starts, that sets the signal up and gives the
     * job each waiter runs to block on it. That job gives 1 once the signal is released.
     */
    Job<Job<Long>> open();

    /** Completes the signal; called from a thread outside the scheduler. */
    void release(Scheduler scheduler);
}
