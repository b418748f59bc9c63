package dev.spindle.bench.workloads;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.util.concurrent.CompletableFuture;

/**
 * Workload 1, skynet: a 10-ary tree of fibers over {@code size} leaves (1,000,000 by default: depth 6). A
 * leaf returns its index; an inner node starts its 10 children concurrently, waits for all and returns
 * the sum. Metric: {@code wall} ms. Check: {@code size * (size - 1) / 2}. Sizes are powers of ten.
 *
 * <p>Spindle: each inner node is {@link SpindleFork#sum} of its 10 children (start all, join all in
 * order). spindle-direct: each node is a direct body, an inner one {@link DirectFork#sum} of its children.
 * vt: a virtual thread per node, joined in order. cf: a {@code supplyAsync} task per node, combined with
 * {@code allOf}.
 */
public final class Skynet extends TimedWorkload {
    private static final int FANOUT = 10;

    /** The workload at its default size. */
    public Skynet() {
        super("skynet", 1_000_000, Metric.WALL_MS);
    }

    @Override
    public long scaledSize(double scale) {
        long exponent = Math.max(1, Math.round(Math.log10(defaultSize() * scale)));
        return (long) Math.pow(FANOUT, exponent);
    }

    @Override
    public void checkSize(long size) {
        super.checkSize(size);
        long s = size;
        while (s % FANOUT == 0) {
            s /= FANOUT;
        }
        if (s != 1) {
            throw new IllegalArgumentException("skynet: size must be a power of 10, was " + size);
        }
    }

    @Override
    public long expectedCheck(long size) {
        return size * (size - 1) / 2;
    }

    @Override
    protected long spindle(Scheduler scheduler, int size) {
        return scheduler.run(spindleNode(0, size));
    }

    private static Job<Long> spindleNode(long first, long leaves) {
        if (leaves == 1) {
            return Job.result(first);
        }
        long step = leaves / FANOUT;
        return SpindleFork.sum(FANOUT, i -> spindleNode(first + i * step, step));
    }

    @Override
    protected long spindleDirect(Scheduler scheduler, int size) {
        return scheduler.run(directNode(0, size));
    }

    private static Job<Long> directNode(long first, long leaves) {
        return Job.direct(() -> {
            if (leaves == 1) {
                return first;
            }
            long step = leaves / FANOUT;
            return DirectFork.sum(FANOUT, i -> directNode(first + i * step, step));
        });
    }

    @Override
    protected long vt(int size) throws Exception {
        return VtFork.call(() -> vtNode(0, size));
    }

    private static long vtNode(long first, long leaves) throws Exception {
        if (leaves == 1) {
            return first;
        }
        long step = leaves / FANOUT;
        return VtFork.sum(FANOUT, i -> vtNode(first + i * step, step));
    }

    @Override
    protected long cf(int size) {
        return CfFork.inPool(() -> cfNode(0, size)).join();
    }

    private static CompletableFuture<Long> cfNode(long first, long leaves) {
        if (leaves == 1) {
            return CompletableFuture.completedFuture(first);
        }
        long step = leaves / FANOUT;
        if (step == 1) {
            return CfFork.sum(FANOUT, i -> first + i); // the children are leaves
        }
        return CfFork.sumComposed(FANOUT, i -> cfNode(first + i * step, step));
    }
}
