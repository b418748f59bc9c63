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
 * Cost of a {@code yieldNow} round trip: the fiber's continuation goes to the back of the run queue and is
 * picked up again (with nothing else to run, by the same or another worker).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class YieldBenchmark extends SchedulerState {
    /** A loop of {@link #OPS} yields. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long yieldRoundTrip() {
        return run(loop(OPS));
    }

    /** {@code left} yields in a {@code flatMap} loop; also {@link DirectAwaitBenchmark}'s stackless baseline. */
    static Job<Long> loop(int left) {
        if (left == 0) {
            return Job.result(0L);
        }
        return Job.yieldNow().flatMap(v -> loop(left - 1));
    }
}
