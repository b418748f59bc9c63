package dev.spindle.bench.micro;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How long a fiber that never blocks keeps the others waiting: on a single-threaded scheduler a busy fiber
 * binds in a loop while a second fiber calls {@code Job.yieldNow()} {@link #ROUNDS} times; one operation is
 * one round of the yielder, so the time per operation is the busy fiber's slice between two automatic
 * yields plus the two yields. The slice is {@code spindle.fuel} x {@code spindle.bouncesPerYield} bind
 * steps; sweep them with {@code -jvmArgsAppend -Dspindle.fuel=N} and compare against
 * {@link FlatMapBenchmark} (the cost of a step, which the bounce every {@code fuel} steps is part of).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class FairnessBenchmark {
    /** Yielder rounds per invocation. */
    public static final int ROUNDS = 1_000;

    private Scheduler s;
    /** Set by the yielder when it is done; read by the busy fiber at every step. */
    private volatile boolean stop;

    /** Creates the scheduler. */
    @Setup(Level.Trial)
    public void openScheduler() {
        s = Scheduler.singleThreaded();
    }

    /** Closes the scheduler. */
    @TearDown(Level.Trial)
    public void closeScheduler() {
        s.close();
    }

    /** One round of a yielding fiber beside a busy one: how long the busy one holds the worker. */
    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public long yielderRound() {
        stop = false;
        return s.run(busy(0).start().flatMap(loop -> yieldRounds(ROUNDS)
                .then(Job.run(() -> stop = true))
                .then(loop.join())));
    }

    /** Binds until {@link #stop}; gives the number of steps taken. */
    private Job<Long> busy(long steps) {
        return Job.defer(() -> stop ? Job.result(steps) : Job.result(steps + 1).flatMap(this::busy));
    }

    private static Job<Void> yieldRounds(int n) {
        return n == 0 ? Job.unit() : Job.yieldNow().flatMap(v -> yieldRounds(n - 1));
    }
}
