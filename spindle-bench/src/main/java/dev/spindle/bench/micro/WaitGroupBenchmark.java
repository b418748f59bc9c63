package dev.spindle.bench.micro;

import dev.spindle.Job;
import dev.spindle.sync.WaitGroup;
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
 * Cost of a task that marks a {@link WaitGroup} done, with one wait for all of them: marl's
 * {@code Schedule/WaitGroup} ({@code src/waitgroup_bench.cpp}): a wait group of count n, n scheduled tasks
 * that each call {@code done()}, then one wait. One op is one task.
 *
 * <p>The wait group itself checks the work: the wait ends only when exactly n {@code done()}s have happened,
 * and one too many fails (and fails the benchmark through the fixture's uncaught-failure check).
 *
 * <p>marl publishes 102 ns per task with no worker threads (262,144 tasks in 26.6 ms on a Threadripper 3990X,
 * Ubuntu), 530 ns with one and 851 ns with two; 152, 381 and 341 ns on a 2018 MacBook Pro (gh-pages
 * {@code benchmarks/results/*.json}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class WaitGroupBenchmark extends WorkerCountState {
    /**
     * marl's shape: {@link #OPS} calls of {@code Scheduler.execute(wg::done)} from the JMH thread, then
     * {@code run(wg.await())}. One op: a fiber's creation, queueing through the global queue, run, its
     * {@code done()} and completion, plus a share of the wait.
     */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long executeDone() {
        WaitGroup wg = new WaitGroup(OPS, "executeDone");
        Runnable done = wg::done;
        for (int i = 0; i < OPS; i++) {
            s.execute(done);
        }
        run(wg.await());
        return check("wait group count", 0, wg.count());
    }

    /**
     * The Spindle-native shape: inside one fiber, {@link #OPS} {@code start}s of a child whose job calls
     * {@code wg.done()}, then {@code wg.await()}. One op: a child fiber's start, run, {@code done()} and
     * completion, plus a share of the wait. The handles are never joined: the wait group is the join (a child
     * may still be finishing on another worker when {@code await} returns).
     */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long startDone() {
        WaitGroup wg = new WaitGroup(OPS, "startDone");
        Job<Void> done = Job.run(wg::done);
        run(repeat(OPS, i -> done.start()).then(wg.await()));
        return check("wait group count", 0, wg.count());
    }
}
