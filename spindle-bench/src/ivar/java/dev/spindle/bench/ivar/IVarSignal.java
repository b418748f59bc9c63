package dev.spindle.bench.ivar;

import dev.spindle.IVar;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.bench.workloads.SpindleSignal;

/** The idle-memory signal as an {@code IVar}: waiters {@code read} it; release fills it with 1. */
public final class IVarSignal implements SpindleSignal {
    private final IVar<Long> ivar = new IVar<>();

    /** A signal not yet filled; instantiated by name. */
    public IVarSignal() {
    }

    @Override
    public Job<Job<Long>> open() {
        return Job.<Job<Long>>result(ivar.read());
    }

    @Override
    public void release(Scheduler scheduler) {
        scheduler.run(ivar.fill(1L));
    }
}
