package dev.spindle.bench.micro;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The scheduler the micro-benchmarks run their loops on. {@code single}: a single-threaded scheduler, so the
 * JMH thread itself runs the loop (no hand-off to a worker: the pure cost of the operation); {@code pool}:
 * the default scheduler with one worker per processor (the hand-off costs one wake-up per invocation,
 * amortised over {@link #OPS} operations).
 *
 * <p>The benchmarks warm up for 2 x 2 s (1 s was not enough for the JIT: the first measured iteration
 * still ran up to twice as slow) and measure 3 x 1 s, so {@code -f 1 -wi 2 -i 3} takes about a minute.
 */
@State(Scope.Benchmark)
public abstract class SchedulerState {
    /** Operations per benchmark invocation: enough to amortise the cost of {@code Scheduler.run}. */
    public static final int OPS = 10_000;

    /** Which scheduler: {@code single} or {@code pool}. */
    @Param({"single", "pool"})
    public String scheduler;

    /** The scheduler, for the trial. */
    protected Scheduler s;

    /** Creates the scheduler. */
    @Setup(Level.Trial)
    public void openScheduler() {
        s = scheduler.equals("single") ? Scheduler.singleThreaded() : Scheduler.create();
    }

    /** Closes the scheduler. */
    @TearDown(Level.Trial)
    public void closeScheduler() {
        s.close();
    }

    /** Runs {@code job} to its end on the scheduler and gives its value. */
    protected <A> A run(Job<A> job) {
        return s.run(job);
    }
}
