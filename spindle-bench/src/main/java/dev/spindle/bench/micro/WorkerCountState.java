package dev.spindle.bench.micro;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.util.function.IntFunction;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The scheduler of the benchmarks that compare one worker with several, plus the loops and checks they share.
 * {@code workers=single}: a single-threaded scheduler, driven by the JMH thread itself (one worker and no
 * other thread); {@code workers=n}: {@code Scheduler.create(n)}, n worker threads. The default values are
 * {@code single} and {@code 2}; {@code -p workers=single,1,2} adds one worker thread of its own, which
 * separates the cost of handing work to another thread from the cost of a second worker.
 *
 * <p>Two workers need two free cores to mean anything: on a loaded machine the figures for {@code 2} measure
 * the operating system's scheduler as much as Spindle's. And two fibers that talk to each other settle on one
 * worker (a resumed fiber runs on the worker that woke it), so for the ping-pongs of {@link ChannelBenchmark},
 * {@link ChooseBenchmark}, {@link IVarBenchmark} and {@link EventBatonBenchmark}, {@code 2} is the one-worker
 * figure with a second worker idling. Independent tasks do spread: those handed to {@code execute} by the JMH
 * thread reach both workers through the global queue ({@link ScheduleBenchmark}, {@link WaitGroupBenchmark});
 * children started by a fiber reach the second worker only when the first shares its surplus.
 *
 * <p>Every invocation waits for the fibers it started (by join, or by a count they report to), so none is
 * left blocked for the next; the scheduler is closed at the end of the trial, which would hang on a fiber
 * left blocked rather than let it go unnoticed. Failures of fire-and-forget fibers fail the next
 * {@link #run}.
 */
@State(Scope.Benchmark)
public abstract class WorkerCountState {
    /** Operations per benchmark invocation, as in {@link SchedulerState#OPS}. */
    public static final int OPS = SchedulerState.OPS;

    /** Which scheduler: {@code single} or a worker count. */
    @Param({"single", "2"})
    public String workers;

    /** The scheduler, for the trial. */
    protected Scheduler s;
    /** The first failure of a fire-and-forget fiber, or null. Set by any worker; read by the JMH thread. */
    private volatile Throwable uncaught;

    /** Creates the scheduler; failures nobody observes are kept for {@link #run} to rethrow. */
    @Setup(Level.Trial)
    public void openScheduler() {
        Scheduler.Builder b = Scheduler.builder().name("bench-" + workers).uncaughtHandler(this::keepUncaught);
        s = (workers.equals("single") ? b.singleThreaded() : b.workers(Integer.parseInt(workers))).build();
    }

    private void keepUncaught(Throwable e) {
        if (uncaught == null) { // benign race: two failing workers may both write; either failure will do
            uncaught = e;
        }
    }

    /**
     * Closes the scheduler, waiting for every fiber started on it.
     *
     * @throws IllegalStateException if a fire-and-forget fiber has failed since the trial began
     */
    @TearDown(Level.Trial)
    public void closeScheduler() {
        s.close();
        throwIfUncaught();
    }

    /**
     * Runs {@code job} to its end on the scheduler and gives its value.
     *
     * @throws IllegalStateException if a fire-and-forget fiber has failed since the trial began
     */
    protected <A> A run(Job<A> job) {
        A value = s.run(job);
        throwIfUncaught();
        return value;
    }

    private void throwIfUncaught() {
        Throwable e = uncaught;
        if (e != null) {
            throw new IllegalStateException("a fire-and-forget fiber failed", e);
        }
    }

    /**
     * Runs {@code job} and checks that its value is {@code expected}.
     *
     * @throws IllegalStateException naming {@code what} when it is not
     */
    protected long runAndCheck(String what, long expected, Job<Long> job) {
        return check(what, expected, run(job));
    }

    /**
     * Gives {@code actual} when it equals {@code expected}.
     *
     * @throws IllegalStateException naming {@code what} when it does not: the benchmark did not do its work
     */
    static long check(String what, long expected, long actual) {
        if (actual != expected) {
            throw new IllegalStateException(what + ": expected " + expected + ", got " + actual);
        }
        return actual;
    }

    /** The sum 0 + 1 + ... + (n - 1): what a loop adding up its step numbers gives. */
    static long triangle(long n) {
        return n * (n - 1) / 2;
    }

    /**
     * A job that runs {@code step.apply(0)}, ..., {@code step.apply(n - 1)} one after another and gives the sum
     * of their values. Step {@code i} is asked for its job only when step {@code i - 1} has finished.
     */
    static Job<Long> sum(int n, IntFunction<? extends Job<Long>> step) {
        return Job.defer(() -> sumFrom(0, n, 0L, step));
    }

    private static Job<Long> sumFrom(int i, int n, long acc, IntFunction<? extends Job<Long>> step) {
        if (i == n) {
            return Job.result(acc);
        }
        return step.apply(i).flatMap(v -> sumFrom(i + 1, n, acc + v, step));
    }

    /**
     * A job that runs {@code step.apply(0)}, ..., {@code step.apply(n - 1)} one after another, ignoring their
     * values, and gives {@code n}: the number of steps it completed. Step {@code i} is asked for its job only
     * when step {@code i - 1} has finished.
     */
    static Job<Long> repeat(int n, IntFunction<? extends Job<?>> step) {
        return Job.defer(() -> repeatFrom(0, n, step));
    }

    private static Job<Long> repeatFrom(int i, int n, IntFunction<? extends Job<?>> step) {
        if (i == n) {
            return Job.result((long) n);
        }
        return step.apply(i).flatMap(v -> repeatFrom(i + 1, n, step));
    }

    /**
     * A job that starts {@code partner} as a child fiber, runs {@code self} in the current fiber, joins the
     * partner and gives the sum of both values: two fibers running side by side, neither outliving the job.
     */
    static Job<Long> alongside(Job<Long> partner, Job<Long> self) {
        return partner.start().flatMap(p -> self.flatMap(a -> p.join().map(b -> a + b)));
    }
}
