package dev.spindle.bench.workloads;

import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.util.concurrent.CompletableFuture;

/**
 * Workload 8, fib: naive parallel Fibonacci of {@code n} ({@code size}, 27 by default): each call with
 * {@code n >= 2} starts {@code fib(n-1)} as a fiber, computes {@code fib(n-2)} itself, then joins.
 * Metric: {@code wall} ms. Check: the Fibonacci number (196418 for 27).
 */
public final class Fib extends TimedWorkload {
    private static final double PHI = (1 + Math.sqrt(5)) / 2;

    /** The workload at its default size. */
    public Fib() {
        super("fib", 27, Metric.WALL_MS);
    }

    /** The work grows by the golden ratio per step of {@code n}, so scaling moves {@code n} by log_phi. */
    @Override
    public long scaledSize(double scale) {
        return Math.max(2, defaultSize() + Math.round(Math.log(scale) / Math.log(PHI)));
    }

    @Override
    public void checkSize(long size) {
        if (size < 0 || size > 60) {
            throw new IllegalArgumentException("fib: n must be in [0, 60], was " + size);
        }
    }

    @Override
    public long expectedCheck(long n) {
        long a = 0;
        long b = 1;
        for (long i = 0; i < n; i++) {
            long next = a + b;
            a = b;
            b = next;
        }
        return a;
    }

    @Override
    protected long spindle(Scheduler scheduler, int n) {
        return scheduler.run(spindleFib(n));
    }

    private static Job<Long> spindleFib(int n) {
        if (n < 2) {
            return Job.result((long) n);
        }
        return spindleFib(n - 1).start().flatMap(f ->
                spindleFib(n - 2).flatMap(b ->
                f.join().map(a -> a + b)));
    }

    @Override
    protected long spindleDirect(Scheduler scheduler, int n) {
        return scheduler.run(Job.direct(() -> directFib(n)));
    }

    /** Inside a direct body. */
    private static long directFib(int n) {
        if (n < 2) {
            return n;
        }
        Fiber<Long> a = Job.direct(() -> directFib(n - 1)).start().await();
        long b = directFib(n - 2);
        return a.join().await() + b;
    }

    @Override
    protected long vt(int n) throws Exception {
        return VtFork.call(() -> vtFib(n));
    }

    private static long vtFib(int n) throws Exception {
        if (n < 2) {
            return n;
        }
        VtFork.Forked a = VtFork.fork(n - 1, Fib::vtFib);
        long b = vtFib(n - 2);
        return a.join() + b;
    }

    @Override
    protected long cf(int n) {
        return CfFork.inPool(() -> cfFib(n)).join();
    }

    private static CompletableFuture<Long> cfFib(int n) {
        if (n < 2) {
            return CompletableFuture.completedFuture((long) n);
        }
        CompletableFuture<Long> a = CompletableFuture.supplyAsync(() -> cfFib(n - 1)).thenCompose(f -> f);
        return cfFib(n - 2).thenCombine(a, Long::sum);
    }
}
