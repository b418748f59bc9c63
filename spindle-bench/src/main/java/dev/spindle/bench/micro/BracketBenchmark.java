package dev.spindle.bench.micro;

import dev.spindle.Job;
import dev.spindle.sync.Mutex;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of a resource's life: {@code Job.bracket} against the plain composition
 * {@code acquire.flatMap(r -> use(r).ensure(release(r)))} it replaces (which may lose the resource to a
 * cancellation), and {@code Mutex.withLock}, a bracket around the lock, free and contended. One op is one
 * acquire, use and release; {@link #OPS} of them run in a loop of binds in one fiber (split over
 * {@value #CONTENDERS} fibers when contended).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class BracketBenchmark extends SchedulerState {
    private static final Function<Long, Job<Long>> USE = r -> Job.result(r + 1);
    private static final Function<Long, Job<Void>> RELEASE = r -> Job.unit();

    private static final int CONTENDERS = 4;

    private final Mutex mutex = new Mutex();

    /** {@code Job.bracket(result(i), use, release)}, {@link #OPS} times. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long bracket() {
        return run(loop(OPS, i -> Job.bracket(Job.result(i), USE, RELEASE)));
    }

    /** The plain composition the bracket replaces, {@link #OPS} times. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long flatMapEnsure() {
        return run(loop(OPS, i -> Job.result(i).flatMap(r -> USE.apply(r).ensure(RELEASE.apply(r)))));
    }

    /** {@code mutex.withLock(result(i))} on a free lock, {@link #OPS} times. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long withLock() {
        return run(loop(OPS, i -> mutex.withLock(Job.result(i + 1))));
    }

    /**
     * {@code mutex.withLock} contended: {@link #CONTENDERS} fibers take turns, each body yielding while it
     * holds the lock, so every acquire waits and every release hands the lock over.
     */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long withLockContended() {
        Job<Long> contender = loop(OPS / CONTENDERS, i -> mutex.withLock(Job.yieldNow().then(Job.result(i + 1))));
        return run(Job.all(Collections.nCopies(CONTENDERS, contender))).size();
    }

    /** {@code n} steps of {@code step}, each on the value the last one gave; gives the last value. */
    private static Job<Long> loop(long n, Function<Long, Job<Long>> step) {
        return n == 0 ? Job.result(0L) : step.apply(n).flatMap(v -> loop(n - 1, step));
    }
}
