package dev.spindle.bench.workloads;

import dev.spindle.IVar;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiFunction;

/**
 * Workload 5, idle-memory: start {@code size} fibers (1,000,000 by default) that each block on one shared,
 * not yet completed one-shot signal; once all are blocked, force a GC and measure the heap in use minus the
 * baseline before they started; then complete the signal and join all. Metric: {@code per_thread} bytes
 * (what each blocked fiber and its handle cost). Check: {@code size}.
 *
 * <p>The signal: Spindle, an {@code IVar} (each waiter's whole job is its {@code read}; in spindle-direct,
 * a direct body blocked in {@code read.await()}, so its continuation counts too); vt, a
 * {@code CountDownLatch}; cf, a {@code CompletableFuture}, each waiter being one dependent stage
 * ({@code thenApply}) of it, the least a
 * waiting computation costs there. Each runtime keeps just one reference per waiter to join it later: the
 * {@code Fiber} handle, the {@code Thread}, the dependent future.
 *
 * <p>"All blocked": every waiter counts itself just before it blocks; when the count is complete at most
 * one waiter per worker or carrier thread can be between counting and blocking, so the runner waits
 * {@value #SETTLE_MS} ms more before it measures.
 */
public final class IdleMemory implements Workload {
    private static final long SETTLE_MS = 20;
    private static final long BLOCK_TIMEOUT_MS = 120_000;

    /** The workload at its default size. */
    public IdleMemory() {
    }

    @Override
    public String name() {
        return "idle-memory";
    }

    @Override
    public long defaultSize() {
        return 1_000_000;
    }

    @Override
    public List<Metric> metrics() {
        return List.of(new Metric("per_thread", "bytes"));
    }

    @Override
    public long expectedCheck(long size) {
        return size;
    }

    /** Which signal Spindle waiters block on. */
    @Override
    public String notes() {
        return "spindle waiters block on an IVar";
    }

    @Override
    public Sample runSpindle(Scheduler scheduler, long size) throws Exception {
        int n = (int) size;
        return measureSpindle(scheduler, n, (read, blocked) -> {
            Job<Long> waiter = Job.defer(() -> {
                blocked.increment();
                return read;
            });
            return SpindleFork.sum(n, i -> waiter);
        });
    }

    @Override
    public Sample runSpindleDirect(Scheduler scheduler, long size) throws Exception {
        int n = (int) size;
        return measureSpindle(scheduler, n, (read, blocked) -> {
            Job<Long> waiter = Job.direct(() -> {
                blocked.increment();
                return read.await();
            });
            return Job.direct(() -> DirectFork.sum(n, i -> waiter));
        });
    }

    /**
     * A Spindle trial: {@code root.apply(read, blocked)} is the job that starts the {@code n} waiters (each
     * counts itself in {@code blocked}, then runs {@code read}, the shared read of an unfilled {@code IVar})
     * and gives the sum of their values; releasing fills the {@code IVar} with 1.
     */
    private static Sample measureSpindle(Scheduler scheduler, int n,
            BiFunction<Job<Long>, LongAdder, Job<Long>> root) throws Exception {
        IVar<Long> signal = new IVar<>();
        return measure(n, new Trial() {
            private CompletableFuture<Long> done;

            @Override
            public void start(LongAdder blocked) {
                done = scheduler.submit(root.apply(signal.read(), blocked));
            }

            @Override
            public long releaseAndJoin() throws Exception {
                scheduler.run(signal.fill(1L));
                return done.get();
            }
        });
    }

    @Override
    public Sample runVt(long size) throws Exception {
        CountDownLatch signal = new CountDownLatch(1);
        LongAdder finished = new LongAdder();
        return measure((int) size, new Trial() {
            private VtFork.Forked root;

            @Override
            public void start(LongAdder blocked) {
                Runnable waiter = () -> {
                    blocked.increment();
                    awaitUninterruptibly(signal);
                    finished.increment();
                };
                root = VtFork.fork((int) size, n -> { // plain threads: no per-waiter object besides the thread
                    Thread[] threads = new Thread[n];
                    for (int i = 0; i < n; i++) {
                        threads[i] = Thread.ofVirtual().start(waiter);
                    }
                    for (Thread t : threads) {
                        t.join();
                    }
                    return finished.sum();
                });
            }

            @Override
            public long releaseAndJoin() throws Exception {
                signal.countDown();
                return root.join();
            }
        });
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public Sample runCf(long size) throws Exception {
        CompletableFuture<Long> signal = new CompletableFuture<>();
        return measure((int) size, new Trial() {
            private CompletableFuture<Long>[] waiters;

            @Override
            public void start(LongAdder blocked) {
                waiters = CfFork.newArray((int) size); // after the baseline, like the Fiber and Thread arrays
                for (int i = 0; i < waiters.length; i++) {
                    blocked.increment();
                    waiters[i] = signal.thenApply(v -> 1L);
                }
            }

            @Override
            public long releaseAndJoin() {
                signal.complete(1L);
                return CfFork.sumOf(waiters).join();
            }
        });
    }

    /** One run's waiters, seen from the measuring thread. */
    private interface Trial {
        /** Starts the waiters; each increments {@code blocked} just before it blocks. */
        void start(LongAdder blocked) throws Exception;

        /** Completes the signal, joins every waiter and returns the number that finished. */
        long releaseAndJoin() throws Exception;
    }

    private static Sample measure(int n, Trial trial) throws Exception {
        LongAdder blocked = new LongAdder();
        long baseline = usedHeapAfterGc();
        trial.start(blocked);
        long deadline = System.nanoTime() + BLOCK_TIMEOUT_MS * 1_000_000;
        while (blocked.sum() < n) {
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("only " + blocked.sum() + " of " + n + " waiters blocked");
            }
            Thread.sleep(1);
        }
        Thread.sleep(SETTLE_MS);
        long used = usedHeapAfterGc();
        long check = trial.releaseAndJoin();
        return new Sample(check, (double) (used - baseline) / n);
    }

    private static long usedHeapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }
}
