package dev.spindle.bench;

import dev.spindle.Scheduler;
import dev.spindle.bench.workloads.Sample;
import dev.spindle.bench.workloads.Workload;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;

/** The runtimes a workload runs on. */
public enum Impl {
    /** Spindle, on a scheduler with one worker per available processor. */
    SPINDLE {
        @Override
        Session open() {
            Scheduler scheduler = Scheduler.create();
            return new Session() {
                @Override
                public Sample run(Workload w, long size) throws Exception {
                    return w.runSpindle(scheduler, size);
                }

                @Override
                public String describe() {
                    return scheduler.workerCount() + " workers";
                }

                @Override
                public void close() {
                    scheduler.close();
                }
            };
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

    /** The name used on the command line and in {@code RESULT} lines. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
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
}
