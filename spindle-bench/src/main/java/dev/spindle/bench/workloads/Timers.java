package dev.spindle.bench.workloads;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Workload 6, timers: {@code size} fibers (1,000,000 by default) each sleep a pseudo-random 0..1000 ms, then
 * return it. Metrics: {@code wall} ms until all have finished (ideal about 1000) and {@code p99_late} ms, the
 * 99th percentile of wake-up lateness. Check: the sum of the sleep lengths.
 *
 * <p>The sleep lengths come from {@link #sleepMillis(int)}, one seeded generator for every runtime, so the
 * checks agree. A sleeper's lateness is the time from its call to sleep until it runs again, minus the
 * length it asked for: it excludes the time it waited to be started, so spawning cost shows in
 * {@code wall} only. Spindle sleeps with {@code Job.sleep} (spindle-direct: {@code Job.sleep(d).await()} in
 * a direct body), vt with {@code Thread.sleep}, cf with a task on {@code CompletableFuture.delayedExecutor}.
 */
public final class Timers implements Workload {
    private static final long SEED = 0x5eed_71e5L;
    private static final int MAX_SLEEP_MS = 1000;
    private static final long NANOS_PER_MS = 1_000_000;

    /** The workload at its default size. */
    public Timers() {
    }

    @Override
    public String name() {
        return "timers";
    }

    @Override
    public long defaultSize() {
        return 1_000_000;
    }

    @Override
    public List<Metric> metrics() {
        return List.of(Metric.WALL_MS, new Metric("p99_late", "ms"));
    }

    @Override
    public long expectedCheck(long size) {
        long sum = 0;
        for (int d : sleepMillis((int) size)) {
            sum += d;
        }
        return sum;
    }

    /** The sleep lengths of a run with {@code n} sleepers, in ms: the same for every runtime and run. */
    public static int[] sleepMillis(int n) {
        SplittableRandom random = new SplittableRandom(SEED);
        int[] millis = new int[n];
        for (int i = 0; i < n; i++) {
            millis[i] = random.nextInt(MAX_SLEEP_MS + 1);
        }
        return millis;
    }

    @Override
    public Sample runSpindle(Scheduler scheduler, long size) {
        Run run = new Run((int) size);
        long check = scheduler.run(SpindleFork.sum(run.millis.length, i -> Job.defer(() -> {
            long before = System.nanoTime();
            return Job.sleep(Duration.ofMillis(run.millis[i])).map(v -> run.woke(i, before));
        })));
        return run.finish(check);
    }

    @Override
    public Sample runSpindleDirect(Scheduler scheduler, long size) {
        Run run = new Run((int) size);
        long check = scheduler.run(Job.direct(() -> DirectFork.sum(run.millis.length, i -> Job.direct(() -> {
            long before = System.nanoTime();
            Job.sleep(Duration.ofMillis(run.millis[i])).await();
            return run.woke(i, before);
        }))));
        return run.finish(check);
    }

    @Override
    public Sample runVt(long size) throws Exception {
        Run run = new Run((int) size);
        long check = VtFork.call(() -> VtFork.sum(run.millis.length, i -> {
            long before = System.nanoTime();
            Thread.sleep(run.millis[i]);
            return run.woke(i, before);
        }));
        return run.finish(check);
    }

    @Override
    public Sample runCf(long size) {
        Run run = new Run((int) size);
        long check = CfFork.inPool(() -> CfFork.sumComposed(run.millis.length, i -> {
            long before = System.nanoTime();
            Executor later = CompletableFuture.delayedExecutor(run.millis[i], TimeUnit.MILLISECONDS);
            return CompletableFuture.supplyAsync(() -> run.woke(i, before), later);
        })).join();
        return run.finish(check);
    }

    /** One run: the sleep lengths, the lateness of every sleeper, and the start time. */
    private static final class Run {
        final int[] millis;
        /** Lateness in ns; slot i written once by sleeper i, read after all joined. */
        final long[] lateNanos;
        /** When the run began (after its set-up). */
        final long start;

        Run(int n) {
            this.millis = sleepMillis(n);
            this.lateNanos = new long[n];
            this.start = System.nanoTime();
        }

        /** Records that sleeper {@code i}, which began sleeping at {@code before}, runs again; gives its length. */
        long woke(int i, long before) {
            lateNanos[i] = System.nanoTime() - before - millis[i] * NANOS_PER_MS;
            return millis[i];
        }

        Sample finish(long check) {
            double wallMs = (System.nanoTime() - start) / 1e6;
            long[] sorted = lateNanos.clone();
            Arrays.sort(sorted);
            int index = (int) Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1);
            return new Sample(check, wallMs, sorted[Math.max(0, index)] / 1e6);
        }
    }
}
