package dev.spindle.bench.micro;

import dev.spindle.Channel;
import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.SchedulerMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The runtime's shared points under many workers: run with {@code -p workers=1,2,64}. On a 2-core machine
 * 64 workers do not run faster; they show what the shared points cost when many threads touch them and the
 * holders of spin locks are preempted (docs/many-cores.md): the global queue and the idle count when a
 * fork/join tree's surplus is shared, the set of root fibers when the tree's fibers are detached, one
 * channel's lock when 64 fibers give to and 64 take from it, and the timer queue's lock when 64 fibers each
 * arm and cancel timers (a {@code timeout} around a job that ends at once).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ManyWorkersBenchmark extends WorkerCountState {
    /** Depth of the binary fork/join tree: 2^DEPTH leaves, 2^DEPTH - 1 fibers started per invocation. */
    static final int DEPTH = 13;
    /** Fibers started per tree. */
    static final int TREE_FIBERS = (1 << DEPTH) - 1;
    /** Givers, and as many takers, on the one channel; also the fibers arming timers. */
    static final int PARTIES = 64;
    /** Values each giver gives (and each taker takes); timeouts each timer fiber runs. */
    static final int ROUNDS = 200;
    /** Exchanges per channel invocation, timeouts per timer invocation. */
    static final int EXCHANGES = PARTIES * ROUNDS;

    private static final Duration LONG_AGO_ENOUGH = Duration.ofSeconds(30);

    /** The scheduler's counts at the start of the measured part (after warm-up). */
    private SchedulerMetrics before;

    /** Notes the counts when an iteration starts; the last one noted is the last iteration's. */
    @Setup(Level.Iteration)
    public void noteCounts() {
        before = s.metrics();
    }

    /**
     * Prints what the last iteration cost the shared points: items moved to the global queue (shares),
     * parks and wake-ups of workers, per fiber started.
     */
    @TearDown(Level.Iteration)
    public void printCounts() {
        SchedulerMetrics now = s.metrics();
        double fibers = Math.max(1, now.fibersStarted() - before.fibersStarted());
        System.out.printf("%n  [%s workers] per 1000 fibers: %.1f shared, %.1f parks, %.1f wake-ups%n",
                workers, 1000 * (now.sharedItems() - before.sharedItems()) / fibers,
                1000 * (now.parks() - before.parks()) / fibers, 1000 * (now.wakeups() - before.wakeups()) / fibers);
    }

    /** A binary tree of child fibers (each node starts one half, runs the other, joins); per fiber started. */
    @Benchmark
    @OperationsPerInvocation(TREE_FIBERS)
    public long forkJoinTree() {
        return runAndCheck("leaf numbers", leafSum(DEPTH), node(DEPTH, 1, false));
    }

    /**
     * The same tree with detached fibers: each is a root, added to and removed from the scheduler's set of
     * roots; per fiber started.
     */
    @Benchmark
    @OperationsPerInvocation(TREE_FIBERS)
    public long detachedTree() {
        return runAndCheck("leaf numbers", leafSum(DEPTH), node(DEPTH, 1, true));
    }

    /** {@link #PARTIES} givers and as many takers on one unbuffered channel; per exchange. */
    @Benchmark
    @OperationsPerInvocation(EXCHANGES)
    public long sharedChannel() {
        Channel<Long> ch = new Channel<>("shared");
        List<Job<Long>> parties = new ArrayList<>(2 * PARTIES);
        for (int g = 0; g < PARTIES; g++) {
            long base = (long) g * ROUNDS;
            parties.add(repeat(ROUNDS, i -> ch.give(base + i)));
            parties.add(sum(ROUNDS, i -> ch.take()));
        }
        List<Long> results = run(Job.all(parties));
        long given = 0;
        long taken = 0;
        for (int p = 0; p < results.size(); p += 2) {
            given += results.get(p);
            taken += results.get(p + 1);
        }
        check("values given", EXCHANGES, given);
        return check("sum of values taken", triangle(EXCHANGES), taken);
    }

    /**
     * {@link #PARTIES} fibers, each running {@link #ROUNDS} timeouts around a yield: every one arms a timer
     * on the engine's one timer queue and cancels it when the yield wins; per timeout.
     */
    @Benchmark
    @OperationsPerInvocation(EXCHANGES)
    public long timeouts() {
        Job<Long> one = Job.yieldNow().timeout(LONG_AGO_ENOUGH).map(v -> 1L);
        List<Job<Long>> fibers = new ArrayList<>(PARTIES);
        for (int f = 0; f < PARTIES; f++) {
            fibers.add(sum(ROUNDS, i -> one));
        }
        long done = 0;
        for (long n : run(Job.all(fibers))) {
            done += n;
        }
        return check("timeouts that completed", EXCHANGES, done);
    }

    /** Node {@code num} (heap numbering) of a tree {@code depth} levels above its leaves: its leaves' sum. */
    private static Job<Long> node(int depth, long num, boolean detached) {
        if (depth == 0) {
            return Job.result(num);
        }
        Job<Long> left = node(depth - 1, 2 * num, detached);
        Job<Fiber<Long>> started = detached ? left.startDetached() : left.start();
        return started.flatMap(l -> node(depth - 1, 2 * num + 1, detached).flatMap(r -> l.join().map(a -> a + r)));
    }

    /** The sum of the leaf numbers of a tree of {@code depth}: 2^depth .. 2^(depth+1) - 1. */
    private static long leafSum(int depth) {
        long first = 1L << depth;
        return triangle(2 * first) - triangle(first);
    }
}
