package dev.spindle.bench.workloads;

import dev.spindle.Fiber;
import dev.spindle.Job;
import java.util.function.IntFunction;

/**
 * Fork/join with Spindle's public API, written the way a user would: start {@code n} child fibers one
 * after another, then join them in order and add up their values.
 *
 * <pre>{@code
 * Job<Long> three = SpindleFork.sum(3, i -> Job.result(1L)); // 3
 * }</pre>
 *
 * @implNote Per child: the {@code start} and {@code join} jobs, one bind step each, the fiber and its handle
 *     (kept in an array until the join loop reaches it).
 */
public final class SpindleFork {
    private SpindleFork() {
    }

    /**
     * A job that starts {@code child.apply(i)} as a child fiber for each {@code i} in {@code [0, n)}, then
     * joins them in order and gives the sum of their values. {@code child} is called while the job runs, so
     * recursive fork/join trees are built lazily.
     */
    public static Job<Long> sum(int n, IntFunction<Job<Long>> child) {
        return Job.defer(() -> new Group(n, child).startFrom(0));
    }

    /** The state of one fork/join: the handles of the children started so far. */
    private static final class Group {
        private final IntFunction<Job<Long>> child;
        private final Fiber<Long>[] fibers;

        @SuppressWarnings("unchecked")
        Group(int n, IntFunction<Job<Long>> child) {
            this.child = child;
            this.fibers = (Fiber<Long>[]) new Fiber<?>[n];
        }

        Job<Long> startFrom(int i) {
            if (i == fibers.length) {
                return joinFrom(0, 0L);
            }
            return child.apply(i).start().flatMap(f -> {
                fibers[i] = f;
                return startFrom(i + 1);
            });
        }

        Job<Long> joinFrom(int i, long acc) {
            if (i == fibers.length) {
                return Job.result(acc);
            }
            Fiber<Long> f = fibers[i];
            fibers[i] = null;
            return f.join().flatMap(v -> joinFrom(i + 1, acc + v));
        }
    }
}
