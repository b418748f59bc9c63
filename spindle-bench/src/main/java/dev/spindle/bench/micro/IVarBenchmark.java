package dev.spindle.bench.micro;

import dev.spindle.IVar;
import dev.spindle.Job;
import java.util.ArrayList;
import java.util.List;
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
 * Cost of an {@link IVar} used as a one-shot signal: creating it, filling it and reading it, with the reader
 * either coming after the fill ({@link #fillRead}) or already waiting ({@link #fillWaitingRead}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class IVarBenchmark extends WorkerCountState {
    /** Round trips of {@link #fillWaitingRead}: each has two hand-offs, so {@link #OPS} in all. */
    private static final int ROUNDS = OPS / 2;

    /**
     * {@link #OPS} times in one fiber: create an IVar, fill it, read it (the value is there: no waiting).
     * One op is the triple. Checks that every read gave the value filled.
     */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long fillRead() {
        return runAndCheck("sum read", triangle(OPS), sum(OPS, i -> {
            IVar<Long> v = new IVar<>();
            return v.fill((long) i).then(v.read());
        }));
    }

    /**
     * Two fibers passing values back and forth through fresh IVars: A fills {@code toB[i]} and reads
     * {@code toA[i]}; B reads {@code toB[i]} and fills {@code toA[i]} with what it read. One op is one
     * hand-off: creating an IVar, reading it in a fiber that has to wait, filling it, and resuming the reader.
     * On one worker every read but B's first finds its IVar empty and waits, because a resumed fiber runs
     * only after the filler has blocked in its own read. Checks that every value made the round trip.
     */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long fillWaitingRead() {
        List<IVar<Long>> toB = fresh(ROUNDS);
        List<IVar<Long>> toA = fresh(ROUNDS);
        Job<Long> a = sum(ROUNDS, i -> toB.get(i).fill((long) i).then(toA.get(i).read()));
        Job<Long> b = repeat(ROUNDS, i -> toB.get(i).read().flatMap(v -> toA.get(i).fill(v)));
        return runAndCheck("sum returned + rounds forwarded", triangle(ROUNDS) + ROUNDS, alongside(b, a));
    }

    private static List<IVar<Long>> fresh(int n) {
        List<IVar<Long>> ivars = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ivars.add(new IVar<>());
        }
        return ivars;
    }
}
