package dev.spindle.bench;

import dev.spindle.bench.workloads.Workload;
import dev.spindle.bench.workloads.Workloads;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The comparison runner: {@code Main <workload> <impl> [size]} runs one workload on one runtime and prints
 * exactly one line to standard output,
 * <pre>{@code RESULT <workload> <impl> <metric>=<value> <unit> [more metrics] check=<checksum>}</pre>
 * with the medians of the timed runs (see {@link Settings} for the run counts and the size scale). Progress
 * goes to standard error.
 *
 * <p>Exit status: 0 success; 1 a run failed or computed a wrong checksum; 64 bad arguments.
 *
 * <p>{@code CompletableFuture}'s common pool gets one thread per available processor (the JDK's default is
 * one fewer) unless {@code java.util.concurrent.ForkJoinPool.common.parallelism} is set.
 */
public final class Main {
    /** Exit status of a failed or wrong run. */
    static final int FAILED = 1;
    /** Exit status for bad arguments (sysexits' EX_USAGE). */
    static final int USAGE = 64;

    private static final String COMMON_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    private Main() {
    }

    /** Runs the benchmark that {@code args} names and exits with its status. */
    public static void main(String[] args) {
        if (System.getProperty(COMMON_PARALLELISM) == null) { // before anything touches the common pool
            System.setProperty(COMMON_PARALLELISM, String.valueOf(Runtime.getRuntime().availableProcessors()));
        }
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 2 || args.length > 3) {
            return usage(err, null);
        }
        Optional<Workload> workload = Workloads.byName(args[0]);
        Optional<Impl> impl = Impl.byId(args[1]);
        if (workload.isEmpty()) {
            return usage(err, "unknown workload: " + args[0]);
        }
        if (impl.isEmpty()) {
            return usage(err, "unknown implementation: " + args[1]);
        }
        Settings settings;
        long size;
        try {
            settings = Settings.fromSystemProperties();
            size = args.length == 3 ? Long.parseLong(args[2]) : workload.get().scaledSize(settings.scale());
            workload.get().checkSize(size);
        } catch (IllegalArgumentException e) {
            return usage(err, e.getMessage());
        }
        try {
            Harness.Result result = new Harness(settings, err).measure(workload.get(), impl.get(), size);
            out.println(result.line());
            out.flush();
            return 0;
        } catch (Harness.ChecksumMismatch e) {
            err.println("FAILED " + args[0] + " " + args[1] + ": " + e.getMessage());
            return FAILED;
        } catch (Exception | Error e) {
            err.println("FAILED " + args[0] + " " + args[1] + ": " + e);
            e.printStackTrace(err);
            return FAILED;
        }
    }

    private static int usage(PrintStream err, String problem) {
        if (problem != null) {
            err.println("error: " + problem);
        }
        err.println("usage: java -jar spindle-bench.jar <workload> <impl> [size]");
        err.println("  workloads: " + Workloads.all().stream().map(Workload::name).collect(Collectors.joining(" ")));
        err.println("  impls:     " + Arrays.stream(Impl.values()).map(Impl::id).collect(Collectors.joining(" ")));
        err.println("  -Dspindle.bench.warmups=N (at least N untimed runs, default " + Settings.DEFAULT_WARMUPS
                + "), -Dspindle.bench.warmupSeconds=S (untimed runs until S seconds have passed, default "
                + Settings.DEFAULT_WARMUP_SECONDS + ", at most " + Settings.MAX_WARMUPS + " runs),");
        err.println("  -Dspindle.bench.runs=N"
                + " (default " + Settings.DEFAULT_RUNS + "), -Dspindle.bench.scale=X (size when none is given:"
                + " the default size scaled by X)");
        return USAGE;
    }
}
