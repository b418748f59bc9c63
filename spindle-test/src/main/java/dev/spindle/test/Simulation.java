package dev.spindle.test;

import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.StopCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A deterministic Spindle runtime for tests: one thread, virtual time, and a seeded order for work that
 * is runnable at the same instant. The same schedule always gives the same interleaving and the same
 * {@link #trace()}.
 *
 * <pre>{@code
 * Simulation sim = Simulation.create();                         // seed 0: scheduling order
 * Instant t0 = sim.now();
 * sim.run(Job.sleep(Duration.ofHours(1)));                      // returns at once, in wall time
 * assertEquals(Duration.ofHours(1), sim.elapsed());
 *
 * Simulation.check(1_000, 42, s -> {                            // 1,000 schedules derived from seed 42
 *     Account a = new Account(100);
 *     s.run(Job.all(List.of(a.withdraw(60), a.withdraw(60))));
 *     assertTrue(a.balance() >= 0);                             // fails with the schedule, trace and replay line
 * });
 * }</pre>
 *
 * <h2>Time</h2>
 * Virtual time starts at zero and moves only when nothing is runnable: {@link #run} jumps to the next timer
 * while its job waits; {@link #advance} moves it explicitly, running what falls due on the way. Running
 * work takes no virtual time. {@link #elapsed()} is the virtual time since the start (reproducible);
 * {@link #now()} is the same clock as {@link Job#now()} and {@link Scheduler#now()} see inside the
 * simulation, as an {@link Instant}: the start instant ({@link Builder#startAt}, the epoch by default)
 * plus {@link #elapsed()}.
 *
 * <h2>Randomness</h2>
 * {@link Job#random()} gives each fiber a generator seeded from this simulation's {@link #seed()}, in the
 * order fibers first ask for one, so randomised code replays exactly under the same schedule (the replay
 * line of an exploration report included).
 *
 * <h2>Driving</h2>
 * Nothing runs unless a method drives the simulation: {@link #run}, {@link #runOutcome},
 * {@link #runUntilIdle}, {@link #advance}, {@link SimFiber#join}, {@link #close}, and the blocking methods of
 * {@link #scheduler()}. {@link #start} and {@code scheduler().submit} only schedule. A driving method that
 * waits for something that can never happen (nothing runnable, no timer pending) throws
 * {@link DeadlockException} naming every blocked fiber.
 *
 * <h2>Limits</h2>
 * A simulation is confined to the thread that drives it and is not thread-safe. Code that leaves the
 * simulator ({@link Job#blocking}, {@link Job#fromFuture} of a future completed by another thread) waits on
 * threads the simulator does not control: it is not deterministic and may be reported as a deadlock.
 * A run that exceeds the step limit (10 million by default) fails with {@link IllegalStateException}: a
 * fiber that yields in a loop waiting for another can starve it forever under some schedules.
 *
 * <p>The scheduler itself is the core's {@link Scheduler} class (which is final): a Simulation holds one
 * running on a driven engine and adds the simulator's controls around it rather than extending it.
 */
public final class Simulation implements AutoCloseable {
    /** Default cap on trace events kept. */
    static final int DEFAULT_TRACE_LIMIT = 100_000;
    /** Default cap on scheduling steps per simulation. */
    static final long DEFAULT_MAX_STEPS = 10_000_000L;

    private final SimScheduler driver;
    private final Engine engine;
    private final Scheduler scheduler;
    /** Failures nobody observed, in order. */
    private final List<Throwable> uncaught = new ArrayList<>();

    private Simulation(Schedule schedule, int traceLimit, long maxSteps, Instant start) {
        this.driver = new SimScheduler(schedule, traceLimit, maxSteps, start);
        this.engine = new Engine("simulation[" + schedule + "]", this::recordUncaught, driver, driver);
        driver.attach(engine);
        this.scheduler = Bridge.get().scheduler(engine);
    }

    // ---------------------------------------------------------------- construction

    /** {@return a simulation in scheduling order (seed 0)} */
    public static Simulation create() {
        return builder().build();
    }

    /**
     * A simulation whose same-instant choices follow {@code seed} (0: scheduling order).
     *
     * @param seed the seed of every choice
     * @return the simulation
     */
    public static Simulation withSeed(long seed) {
        return builder().schedule(Schedule.seeded(seed)).build();
    }

    /**
     * A simulation under the schedule {@code token} names ({@code "seed:42"}, {@code "pct:42:3:200"}):
     * replays a failure reported by {@link #explore}.
     *
     * @param token a schedule token, as a report prints it
     * @return the simulation
     * @throws IllegalArgumentException if {@code token} is not a schedule
     */
    public static Simulation replay(String token) {
        return builder().schedule(Schedule.parse(token)).build();
    }

    /** {@return a builder for a schedule, a trace limit or a step limit} */
    public static Builder builder() {
        return new Builder();
    }

    // ---------------------------------------------------------------- exploration

    /**
     * Runs {@code scenario} under {@code schedules} different schedules derived from {@code seed}, each
     * in a fresh simulation, and stops at the first that fails. The first schedule is scheduling order;
     * the others alternate between seeded random choice and PCT with depths 2, 3 and 1 (PCT's step bound
     * is the largest step count seen so far). A scenario fails by throwing, or by leaving failures that
     * nobody observed ({@link #uncaughtFailures()}).
     *
     * @param schedules how many schedules to try, at least 1
     * @param seed the base seed the schedules derive from
     * @param scenario the test, run once per schedule in a fresh simulation
     * @return the report: passed, or the failing schedule with its trace and the line that replays it
     * @throws IllegalArgumentException if {@code schedules < 1}
     */
    public static ExplorationReport explore(int schedules, long seed, Scenario scenario) {
        return Explorer.explore(schedules, seed, Objects.requireNonNull(scenario, "scenario"));
    }

    /**
     * Like {@link #explore}, but throws an {@link AssertionError} carrying the report (and the scenario's
     * failure as its cause) when a schedule fails.
     *
     * @param schedules how many schedules to try, at least 1
     * @param seed the base seed the schedules derive from
     * @param scenario the test, run once per schedule in a fresh simulation
     */
    public static void check(int schedules, long seed, Scenario scenario) {
        explore(schedules, seed, scenario).throwIfFailed();
    }

    /**
     * Runs {@code scenario} once under the schedule {@code token} names; throws an {@link AssertionError}
     * with the report when it fails. The line an exploration report prints to replay a failure.
     *
     * @param token the schedule token of the failure
     * @param scenario the test that failed under it
     */
    public static void replay(String token, Scenario scenario) {
        Explorer.run(Schedule.parse(token), Objects.requireNonNull(scenario, "scenario")).throwIfFailed();
    }

    // ---------------------------------------------------------------- running jobs

    /**
     * The scheduler of this simulation: a real {@link Scheduler} whose blocking methods ({@code run},
     * {@code runOutcome}, {@code close}) drive the simulation and whose {@code submit} only schedules.
     *
     * @return the scheduler
     */
    public Scheduler scheduler() {
        return scheduler;
    }

    /**
     * Runs {@code job} as a new fiber, driving the simulation until it ends: returns its value, rethrows
     * its failure (unchecked as is, checked wrapped in {@link java.util.concurrent.CompletionException}),
     * or throws {@link java.util.concurrent.CancellationException}, like {@link Scheduler#run}. Other fibers
     * may be left runnable when it returns.
     *
     * @param <A> the type of the job's value
     * @param job the job to run
     * @return the job's value
     * @throws DeadlockException if the job can never end
     */
    public <A> A run(Job<A> job) {
        return scheduler.run(job);
    }

    /**
     * Runs {@code job} like {@link #run} and gives its {@link Outcome}.
     *
     * @param <A> the type of the job's value
     * @param job the job to run
     * @return how the job ended
     * @throws DeadlockException if the job can never end
     */
    public <A> Outcome<A> runOutcome(Job<A> job) {
        return scheduler.runOutcome(job);
    }

    /**
     * Schedules {@code job} as a new fiber without running anything; drive the simulation to run it.
     *
     * @param <A> the type of the job's value
     * @param job the job to start
     * @return a handle on the new fiber
     */
    public <A> SimFiber<A> start(Job<A> job) {
        return new SimFiber<>(this, Bridge.get().startRoot(scheduler, job));
    }

    /** Runs everything runnable at the current instant, and what that makes runnable; time stands still. */
    public void runUntilIdle() {
        driver.runUntilIdle(engine);
    }

    /**
     * Moves virtual time forward by {@code duration}, running everything that is runnable or falls due on
     * the way, in time order.
     *
     * @param duration how far to move, not negative
     * @throws IllegalArgumentException if {@code duration} is negative
     */
    public void advance(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("cannot advance by a negative duration: " + duration);
        }
        driver.advanceTo(engine, driver.nanoTime() + duration.toNanos());
    }

    /**
     * Stops accepting jobs and drives the simulation until every fiber has finished (timers included):
     * a check that nothing leaked.
     *
     * @throws DeadlockException naming the fibers that can never finish
     */
    @Override
    public void close() {
        try {
            scheduler.close();
        } finally {
            driver.detach();
        }
    }

    /** Ends the calling thread's confinement to this simulation without closing it (an exploration's run). */
    void detach() {
        driver.detach();
    }

    // ---------------------------------------------------------------- state

    /** {@return the current virtual time, on the clock that {@link Job#now()} reads inside this simulation} */
    public Instant now() {
        return scheduler.now();
    }

    /** {@return virtual time since the simulation started} */
    public Duration elapsed() {
        return Duration.ofNanos(driver.nanoTime());
    }

    /** {@return whether fibers are alive but nothing is runnable and no timer is pending: they wait forever} */
    public boolean isDeadlocked() {
        return driver.liveCount() > 0 && driver.isStuck(engine);
    }

    /** {@return live fibers with nothing runnable (waiting on something or sleeping), in start order} */
    public List<BlockedFiber> blockedFibers() {
        return driver.waitingFibers();
    }

    /** {@return number of fibers started and not yet finished} */
    public int liveFibers() {
        return driver.liveCount();
    }

    /**
     * Number of timers pending (sleeps and timeouts not yet due or cancelled): 0 after a clean close.
     *
     * @return the number of pending timers
     */
    public int pendingTimers() {
        return engine.timers().size();
    }

    /** {@return the seed of this simulation's schedule} */
    public long seed() {
        return driver.schedule().seed();
    }

    /** {@return the schedule this simulation follows; its {@code toString()} is the replay token} */
    public Schedule schedule() {
        return driver.schedule();
    }

    /** {@return scheduling steps taken so far (work items run)} */
    public long steps() {
        return driver.steps();
    }

    /** {@return what happened so far} */
    public Trace trace() {
        return driver.trace();
    }

    /**
     * Adds {@code text} to the trace, attributed to the fiber running now (call it from inside a job), or
     * to the test when called between steps.
     *
     * @param text the note
     */
    public void note(String text) {
        driver.note(Objects.requireNonNull(text, "text"));
    }

    /** {@return failures of fibers that nobody observed (fire-and-forget fibers), in order} */
    public List<Throwable> uncaughtFailures() {
        return Collections.unmodifiableList(uncaught);
    }

    @Override
    public String toString() {
        return "Simulation[" + driver.schedule() + ", t=" + VirtualTime.format(driver.nanoTime()) + ", "
                + driver.liveCount() + " live fibers]";
    }

    // ---------------------------------------------------------------- internals

    /** Drives until {@code stop} holds; DeadlockException when it never can. */
    void driveUntil(StopCondition stop) {
        driver.driveUntil(engine, stop);
    }

    private void recordUncaught(Throwable e) {
        uncaught.add(e);
        driver.uncaught(e);
    }

    /**
     * Configures a {@link Simulation}.
     *
     * <pre>{@code
     * Simulation sim = Simulation.builder()
     *         .schedule(Schedule.pct(7, 3, 500))
     *         .traceLimit(1_000)
     *         .build();
     * }</pre>
     */
    public static final class Builder {
        private Schedule schedule = Schedule.schedulingOrder();
        private int traceLimit = DEFAULT_TRACE_LIMIT;
        private long maxSteps = DEFAULT_MAX_STEPS;
        private Instant start = Instant.EPOCH;

        private Builder() {
        }

        /**
         * The instant the virtual clock reads when the simulation starts (default: the epoch), as
         * {@link Job#now()}, {@link Scheduler#now()} and {@link Simulation#now()} see it; deadlines
         * ({@link Job#sleepUntil}, {@code Alt.at}) are on this clock too.
         *
         * @param instant the start instant
         * @return this builder
         */
        public Builder startAt(Instant instant) {
            this.start = Objects.requireNonNull(instant, "instant");
            return this;
        }

        /**
         * The schedule to follow (default: scheduling order, {@code seed:0}).
         *
         * @param s the schedule
         * @return this builder
         */
        public Builder schedule(Schedule s) {
            this.schedule = Objects.requireNonNull(s, "schedule");
            return this;
        }

        /**
         * Most recent trace events to keep (default 100,000; 0 records none).
         *
         * @param events how many events to keep, not negative
         * @return this builder
         */
        public Builder traceLimit(int events) {
            if (events < 0) {
                throw new IllegalArgumentException("trace limit must not be negative, was " + events);
            }
            this.traceLimit = events;
            return this;
        }

        /**
         * Scheduling steps after which a drive fails as a probable livelock (default 10 million).
         *
         * @param steps the limit, at least 1
         * @return this builder
         */
        public Builder maxSteps(long steps) {
            if (steps < 1) {
                throw new IllegalArgumentException("step limit must be at least 1, was " + steps);
            }
            this.maxSteps = steps;
            return this;
        }

        /** {@return a new simulation with these settings} */
        public Simulation build() {
            return new Simulation(schedule, traceLimit, maxSteps, start);
        }
    }
}
