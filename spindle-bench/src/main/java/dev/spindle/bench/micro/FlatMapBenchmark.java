package dev.spindle.bench.micro;

import dev.spindle.Job;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one {@code flatMap} step inside a fiber: building {@code Job.result(i).flatMap(f)} and running it,
 * which includes the cancellation check and the step budget of the trampoline.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class FlatMapBenchmark extends SchedulerState {
    /** A loop of {@link #OPS} flatMap steps. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long flatMapStep() {
        return run(countDown(OPS));
    }

    /** {@code i} {@code flatMap} steps on results; also {@link DirectAwaitBenchmark}'s stackless baseline. */
    static Job<Long> countDown(long i) {
        if (i == 0) {
            return Job.result(0L);
        }
        return Job.result(i - 1).flatMap(FlatMapBenchmark::countDown);
    }
}
