package dev.spindle.bench.workloads;

import dev.spindle.Job;
import dev.spindle.Scheduler;

/**
 * Workload 4, spawnjoin: start {@code size} fibers (1,000,000 by default) that each return 1 at once, then
 * join them all in order. Metric: {@code per_spawn} ns (spawn and join). Check: {@code size}.
 *
 * <p>The spawner runs inside each runtime: a fiber, a virtual thread, a pool task. In spindle-direct both
 * the spawner and the children are direct bodies, so a spawn includes a child's continuation.
 */
public final class SpawnJoin extends TimedWorkload {
    private static final Job<Long> ONE = Job.result(1L);
    private static final Job<Long> DIRECT_ONE = Job.direct(() -> 1L);

    /** The workload at its default size. */
    public SpawnJoin() {
        super("spawnjoin", 1_000_000, Metric.perOpNanos("per_spawn"));
    }

    @Override
    public long expectedCheck(long size) {
        return size;
    }

    @Override
    protected long spindle(Scheduler scheduler, int size) {
        return scheduler.run(SpindleFork.sum(size, i -> ONE));
    }

    @Override
    protected long spindleDirect(Scheduler scheduler, int size) {
        return scheduler.run(Job.direct(() -> DirectFork.sum(size, i -> DIRECT_ONE)));
    }

    @Override
    protected long vt(int size) throws Exception {
        return VtFork.call(() -> VtFork.sum(size, i -> 1));
    }

    @Override
    protected long cf(int size) {
        return CfFork.inPool(() -> CfFork.sum(size, i -> 1L)).join();
    }
}
