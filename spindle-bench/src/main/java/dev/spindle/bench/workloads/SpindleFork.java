package dev.spindle.bench.workloads;

import dev.spindle.Fiber;
import dev.spindle.Job;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Fork/join with Spindle's public API, written the way a user would: start {@code n} child fibers one
 * after another, then join them in order and add up their values.
 *
 * <pre>{@code
 * Job<Long> three = SpindleFork.sum(3, i -> Job.result(1L)); // 3
 * }</pre>
 *
 * @implNote Both loops are {@code flatMap} chains whose step function is one object per fork/join (the
 *     loop state lives in it; the steps of one fiber run one at a time), not a capturing lambda per step.
 *     Per child there remain the {@code start} and {@code join} jobs, a bind step each, the fiber and its
 *     handle (kept in an array until the join loop reaches it).
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
        return Job.defer(() -> new Starter(n, child).next());
    }

    /** The start loop: its step stores the handle of the child just started and starts the next one. */
    private static final class Starter implements Function<Fiber<Long>, Job<Long>> {
        private final IntFunction<Job<Long>> child;
        private final Fiber<Long>[] fibers;
        /** Children started so far. */
        private int started;

        @SuppressWarnings("unchecked")
        Starter(int n, IntFunction<Job<Long>> child) {
            this.child = child;
            this.fibers = (Fiber<Long>[]) new Fiber<?>[n];
        }

        Job<Long> next() {
            if (started == fibers.length) {
                return new Joiner(fibers).next();
            }
            return child.apply(started).start().flatMap(this);
        }

        @Override
        public Job<Long> apply(Fiber<Long> f) {
            fibers[started++] = f;
            return next();
        }
    }

    /** The join loop: its step adds the value of the child just joined and joins the next one. */
    private static final class Joiner implements Function<Long, Job<Long>> {
        private final Fiber<Long>[] fibers;
        /** Children joined so far. */
        private int joined;
        /** Sum of their values. */
        private long sum;

        Joiner(Fiber<Long>[] fibers) {
            this.fibers = fibers;
        }

        Job<Long> next() {
            if (joined == fibers.length) {
                return Job.result(sum);
            }
            Fiber<Long> f = fibers[joined];
            fibers[joined] = null;
            return f.join().flatMap(this);
        }

        @Override
        public Job<Long> apply(Long value) {
            sum += value;
            joined++;
            return next();
        }
    }
}
