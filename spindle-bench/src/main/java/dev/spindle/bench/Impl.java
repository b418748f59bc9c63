package dev.spindle.bench;

import dev.spindle.Direct;
import dev.spindle.Scheduler;
import dev.spindle.bench.workloads.Sample;
import dev.spindle.bench.workloads.Workload;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;

/** The runtimes a workload runs on. */
public enum Impl {
    /** Spindle, combinators style, on a scheduler with one worker per available processor. */
    SPINDLE {
        @Override
        Session open() {
            return new SpindleSession(Workload::runSpindle, "");
        }
    },
    /**
     * Spindle, direct style ({@code Job.direct} bodies calling {@code await}), on the same kind of scheduler.
     * The log's header names the direct backend: {@code CONTINUATION} needs java.base to export
     * {@code jdk.internal.vm} (the jar's manifest does it for {@code java -jar}), else {@code VIRTUAL_THREAD}.
     */
    SPINDLE_DIRECT {
        @Override
        Session open() {
            return new SpindleSession(Workload::runSpindleDirect, ", direct backend " + Direct.backend());
        }
    },
    /** JDK virtual threads; {@code SynchronousQueue}, {@code CountDownLatch}, {@code Thread.sleep}. */
    VT {
        @Override
        Session open() {
            return new Session() {
                @Override
                public Sample run(Workload w, long size) throws Exception {
                    return w.runVt(size);
                }

                @Override
                public String describe() {
                    String p = System.getProperty("jdk.virtualThreadScheduler.parallelism");
                    return "virtual thread scheduler parallelism "
                            + (p != null ? p : String.valueOf(Runtime.getRuntime().availableProcessors()));
                }
            };
        }
    },
    /** {@code CompletableFuture} on the common pool, asynchronous style. */
    CF {
        @Override
        Session open() {
            return new Session() {
                @Override
                public Sample run(Workload w, long size) throws Exception {
                    return w.runCf(size);
                }

                @Override
                public String describe() {
                    return "common pool parallelism " + ForkJoinPool.getCommonPoolParallelism();
                }
            };
        }
    };

    /** The name used on the command line and in {@code RESULT} lines, e.g. {@code spindle-direct}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The implementation called {@code id}, if any. */
    public static Optional<Impl> byId(String id) {
        return Arrays.stream(values()).filter(i -> i.id().equals(id)).findFirst();
    }

    /** Sets the runtime up (a scheduler for Spindle) for a series of runs. */
    abstract Session open();

    /** A runtime set up for a series of runs of one workload. */
    interface Session extends AutoCloseable {
        /** Runs {@code w} once at {@code size}. */
        Sample run(Workload w, long size) throws Exception;

        /** The runtime's configuration, for the log. */
        String describe();

        @Override
        default void close() {
        }
    }

    /** How a Spindle implementation runs a workload once on a scheduler. */
    @FunctionalInterface
    private interface SpindleRun {
        Sample run(Workload w, Scheduler scheduler, long size) throws Exception;
    }

    /** A series of Spindle runs on one scheduler with one worker per available processor. */
    private static final class SpindleSession implements Session {
        private final Scheduler scheduler = Scheduler.create();
        private final SpindleRun run;
        /** Appended to the worker count in {@link #describe}. */
        private final String details;

        SpindleSession(SpindleRun run, String details) {
            this.run = run;
            this.details = details;
        }

        @Override
        public Sample run(Workload w, long size) throws Exception {
            return run.run(w, scheduler, size);
        }

        @Override
        public String describe() {
            return scheduler.workerCount() + " workers" + details;
        }

        @Override
        public void close() {
            scheduler.close();
        }
    }
}
