package dev.spindle.bench.micro;

import dev.spindle.Fiber;
import dev.spindle.Job;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of scheduling a task that does (almost) nothing and waiting for all of them: marl's
 * {@code Schedule/Empty} ({@code src/scheduler_bench.cpp}), which schedules empty tasks from the thread bound
 * to the scheduler, next to the Spindle-native form, in which a fiber starts child fibers.
 *
 * <p>Not the same measurement as marl's: marl times only the {@code schedule()} calls (with no worker
 * threads the tasks run after the timed loop, when the scheduler is unbound: 28 ns per task on a Threadripper
 * 3990X, 63 ns on a 2018 MacBook Pro, per marl's gh-pages {@code benchmarks/results}), while these also run
 * every task and wait for the last one. marl's {@code Schedule/WaitGroup} ({@link WaitGroupBenchmark}) is the
 * closer comparison.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class ScheduleBenchmark extends WorkerCountState {
    private static final Job<Long> ONE = Job.result(1L);

    /** Tasks of {@link #executeEmpty} that have run. Bumped by the tasks, on any worker. */
    private final LongAdder ran = new LongAdder();
    /** Tasks {@link #executeEmpty} has handed to the scheduler. Written by the JMH thread only. */
    private long executed;
    /** The task: it only counts itself (marl's is empty; counting is what lets us wait and check). */
    private final Runnable countMe = ran::increment;

    /**
     * {@link #OPS} calls of {@code Scheduler.execute} from the JMH thread (a thread that drives no worker,
     * so each fiber goes through the global queue), then a fiber that yields until all of them have run.
     * One op is one task: its fiber's creation, queueing, run and completion, and the
     * {@code LongAdder} increment it does. On {@code single} the tasks run only once the JMH thread drives
     * the scheduler in {@code run}, as in marl's single-threaded mode. Checks that every task ran once.
     */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long executeEmpty() {
        for (int i = 0; i < OPS; i++) {
            s.execute(countMe);
        }
        executed += OPS;
        return runAndCheck("tasks run", executed, allRan(executed));
    }

    /** A job that yields until {@code target} tasks have run, then gives how many have. */
    private Job<Long> allRan(long target) {
        return Job.defer(() -> {
            long n = ran.sum();
            return n < target ? Job.yieldNow().then(allRan(target)) : Job.result(n);
        });
    }

    /**
     * Inside one fiber, {@link #OPS} {@code start}s of a job that gives 1 at once, then a {@code join} of each
     * child in start order: the children pile up before any runs (the spawnjoin workload's shape, where
     * {@code StartJoinBenchmark} joins each child before starting the next). One op is one child: start, run,
     * completion and join. Checks that every child's value was joined.
     */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long startEmpty() {
        List<Fiber<Long>> children = new ArrayList<>(OPS);
        Job<Long> startAll = repeat(OPS, i -> ONE.start().map(children::add));
        Job<Long> joinAll = sum(OPS, i -> children.get(i).join());
        return runAndCheck("children joined", OPS, startAll.then(joinAll));
    }
}
