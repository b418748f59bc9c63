package dev.spindle.bench.micro;

import dev.spindle.Direct;
import dev.spindle.Job;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one direct-style {@code await}, a suspend and resume of a direct body on the continuation
 * backend, against the stackless equivalent: each invocation runs {@link #OPS} of them in one fiber.
 * <ul>
 *   <li>{@code yieldAwait}: {@code Job.yieldNow().await()} in a loop inside one direct body: the body's
 *       continuation yields (a suspend), the yield goes to the back of the run queue, and its end resumes
 *       the body (a resume).
 *   <li>{@code yieldStackless}: the same yields as a {@code flatMap} loop ({@link YieldBenchmark}'s).
 *   <li>{@code resultAwait}: {@code Job.result(i).await()}, an awaited job that is done at once: the
 *       cost of an await that need not suspend (the job runs inline; no yield).
 *   <li>{@code resultStackless}: {@code flatMap} steps on results ({@link FlatMapBenchmark}'s).
 * </ul>
 * The forked JVM gets {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED}, so direct bodies run
 * as continuations on the scheduler's workers; the trial fails if they would run on virtual threads.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--add-exports=java.base/jdk.internal.vm=ALL-UNNAMED")
public class DirectAwaitBenchmark extends SchedulerState {
    private static final Job<Long> YIELD_AWAITS = Job.direct(() -> {
        for (int i = 0; i < OPS; i++) {
            Job.yieldNow().await();
        }
        return 0L;
    });

    private static final Job<Long> RESULT_AWAITS = Job.direct(() -> {
        long sum = 0;
        for (int i = 0; i < OPS; i++) {
            sum += Job.result((long) i).await();
        }
        return sum;
    });

    /** Refuses to measure the virtual-thread backend under this benchmark's name. */
    @Setup(Level.Trial)
    public void checkBackend() {
        if (Direct.backend() != Direct.Backend.CONTINUATION) {
            throw new IllegalStateException("direct bodies would run on " + Direct.backend()
                    + "; the forked JVM needs --add-exports java.base/jdk.internal.vm=ALL-UNNAMED");
        }
    }

    /** {@link #OPS} yields awaited in one direct body. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long yieldAwait() {
        return run(YIELD_AWAITS);
    }

    /** {@link #OPS} yields in a {@code flatMap} loop. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long yieldStackless() {
        return run(YieldBenchmark.loop(OPS));
    }

    /** {@link #OPS} completed jobs awaited in one direct body. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long resultAwait() {
        return run(RESULT_AWAITS);
    }

    /** {@link #OPS} {@code flatMap} steps on results. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long resultStackless() {
        return run(FlatMapBenchmark.countDown(OPS));
    }
}
