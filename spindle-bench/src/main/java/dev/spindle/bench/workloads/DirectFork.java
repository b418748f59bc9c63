package dev.spindle.bench.workloads;

import dev.spindle.Fiber;
import dev.spindle.Job;
import java.util.function.IntFunction;

/**
 * Fork/join in Spindle's direct style, written the way a user would, for calling inside a
 * {@code Job.direct} body: start {@code n} child fibers one after another ({@code start().await()}), then
 * join them in order ({@code join().await()}) and add up their values. The direct fiber suspends at each
 * await; no worker thread blocks.
 *
 * <pre>{@code
 * long three = scheduler.run(Job.direct(() -> DirectFork.sum(3, i -> Job.direct(() -> 1L)))); // 3
 * }</pre>
 *
 * @implNote {@code await} runs its job inside the direct fiber (no fiber of its own), so a start costs the
 *     started fiber only; the handles stay in an array until joined.
 */
public final class DirectFork {
    private DirectFork() {
    }

    /**
     * Inside a direct body: starts {@code child.apply(i)} as a child fiber for each {@code i} in
     * {@code [0, n)}, then joins them in order and returns the sum of their values.
     */
    public static long sum(int n, IntFunction<Job<Long>> child) {
        @SuppressWarnings("unchecked")
        Fiber<Long>[] fibers = (Fiber<Long>[]) new Fiber<?>[n];
        for (int i = 0; i < n; i++) {
            fibers[i] = child.apply(i).start().await();
        }
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += fibers[i].join().await();
            fibers[i] = null;
        }
        return sum;
    }
}
