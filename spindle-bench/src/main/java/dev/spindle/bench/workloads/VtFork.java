package dev.spindle.bench.workloads;

import java.util.concurrent.Callable;

/**
 * Fork/join with JDK virtual threads: a thread per child, {@link Thread#join()} in order. A child's failure
 * is rethrown by its joiner.
 *
 * <pre>{@code
 * long three = VtFork.sum(3, i -> 1);                  // 3
 * VtFork.Forked f = VtFork.fork(10, Fib::vtFib);        // computes vtFib(10) on its own thread
 * long fib10 = f.join();
 * }</pre>
 */
public final class VtFork {
    private VtFork() {
    }

    /** The body of a child: computes a long from an int argument (its index, or its input). */
    @FunctionalInterface
    public interface LongTask {
        /** Computes the child's value. */
        long compute(int argument) throws Exception;
    }

    /** Starts a virtual thread computing {@code task.compute(argument)}. */
    public static Forked fork(int argument, LongTask task) {
        Forked f = new Forked(task, argument);
        f.thread.start();
        return f;
    }

    /**
     * Starts a virtual thread computing {@code child.compute(i)} for each {@code i} in {@code [0, n)}, then
     * joins them in order and returns the sum of their values.
     */
    public static long sum(int n, LongTask child) throws Exception {
        Forked[] children = new Forked[n];
        for (int i = 0; i < n; i++) {
            children[i] = fork(i, child);
        }
        long acc = 0;
        for (int i = 0; i < n; i++) {
            acc += children[i].join();
            children[i] = null;
        }
        return acc;
    }

    /** Runs {@code body} on a new virtual thread and returns its value (so the work starts inside the runtime). */
    public static <T> T call(Callable<T> body) throws Exception {
        Object[] result = new Object[1];
        fork(0, ignored -> {
            result[0] = body.call();
            return 0;
        }).join();
        @SuppressWarnings("unchecked")
        T value = (T) result[0];
        return value;
    }

    /** A started child: its thread and, once it ended, its value or failure. */
    public static final class Forked {
        private final LongTask task;
        private final int argument;
        private final Thread thread;
        /** Written by the child thread; read by the joiner after join (happens-before). */
        private long value;
        /** Written by the child thread; read by the joiner after join (happens-before). */
        private Throwable failure;

        private Forked(LongTask task, int argument) {
            this.task = task;
            this.argument = argument;
            this.thread = Thread.ofVirtual().unstarted(this::run);
        }

        private void run() {
            try {
                value = task.compute(argument);
            } catch (Throwable e) {
                failure = e;
            }
        }

        /** Waits for the child and returns its value, or rethrows its failure. */
        public long join() throws Exception {
            thread.join();
            if (failure instanceof Exception e) {
                throw e;
            } else if (failure instanceof Error e) {
                throw e;
            }
            return value;
        }
    }
}
