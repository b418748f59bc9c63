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
 * Cost of starting a child fiber that returns at once and joining it, one after another in a loop: fiber
 * creation, the cancellation-tree link, the local push, the child's run and completion, and the join.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class StartJoinBenchmark extends SchedulerState {
    private static final Job<Long> ONE = Job.result(1L);

    /** A loop of {@link #OPS} start+join pairs. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long startJoin() {
        return run(loop(OPS, 0));
    }

    private static Job<Long> loop(int left, long acc) {
        if (left == 0) {
            return Job.result(acc);
        }
        return ONE.start().flatMap(f -> f.join()).flatMap(v -> loop(left - 1, acc + v));
    }
}
