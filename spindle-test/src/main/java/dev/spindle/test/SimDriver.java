package dev.spindle.test;

import dev.spindle.internal.run.Drive;
import dev.spindle.internal.run.Driver;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.StopCondition;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Work;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The simulator's scheduling core: runs an engine's work on one thread in virtual time, choosing the
 * next item among everything runnable at the current instant. As the engine's {@link Driver} it answers
 * the runtime's questions for a simulation: virtual time, the caller drives, the driver chooses the order
 * (a started child is queued, not run inline), no other thread may do the engine's work, and no timer
 * thread (the driver takes due timers when nothing is runnable).
 *
 * <pre>
 * Implementation overview
 * =======================
 * Runnable set
 *   After every item the driver moves what the item scheduled into {@code runnable}, in scheduling
 *   order: the worker's local stack (pushed newest-first, so it is reversed) and then the engine's global
 *   queue. The worker loop's own policies (LIFO stack, sharing) are bypassed; bind steps, bounces,
 *   timers and cancellation run the production code unchanged.
 *
 * Choice
 *   seed 0 takes the oldest runnable item (scheduling order); any other seed picks uniformly with a
 *   SplittableRandom seeded once. Subclasses may override {@link #pick} (e.g. PCT priorities).
 *
 * Time
 *   Virtual nanoseconds, starting at 0. Time moves only when nothing is runnable: to the earliest timer
 *   (driveUntil) or to a target instant (advanceTo). Nothing runnable and no timer while the stop
 *   condition is false is a deadlock: {@link #deadlock()} makes the exception to throw.
 *   The timers due at one instant become runnable together; {@link #orderDue} may reorder them first
 *   (the timer heap does not keep equal deadlines in scheduling order).
 *
 * Hooks (for traces and strategies; all run on the driving thread)
 *   pick(items)        which runnable item goes next
 *   beforeRun(item)    just before an item runs (may throw to abort the drive, e.g. a step limit)
 *   afterRun(item)     just after it ran (the item may already be queued again)
 *   timeAdvanced(t)    the clock moved to t
 *   orderDue(items)    timers that fell due together, before they join the runnable set
 *   deadlock()         the exception for a stuck drive
 *
 * Single-threaded by construction: every method runs on the thread that drives the simulation.
 * </pre>
 */
class SimDriver implements Driver {
    /** Everything runnable now, in scheduling order. */
    private final ArrayList<Work> runnable = new ArrayList<>();
    /** Read-only view of {@link #runnable} for subclasses. */
    private final List<Work> runnableView = java.util.Collections.unmodifiableList(runnable);
    /** Scratch list for timers falling due together. */
    private final ArrayList<Work> due = new ArrayList<>();
    private final SplittableRandom random;
    private final long seed;
    /** Virtual time in nanoseconds. */
    private long now;
    /** Items run so far. */
    private long steps;

    /** A driver whose choices follow {@code seed} (0: scheduling order). */
    SimDriver(long seed) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    /** The seed of this run. */
    public final long seed() {
        return seed;
    }

    @Override
    public final long nanoTime() {
        return now;
    }

    /** Virtual time from the epoch; a subclass may choose another origin. */
    @Override
    public Instant instant(long nanos) {
        return Instant.EPOCH.plusNanos(nanos);
    }

    @Override
    public final void await(Engine engine, StopCondition stop) {
        driveUntil(engine, stop);
    }

    @Override
    public final void awaitQuiescent(Engine engine, StopCondition quiescent) {
        driveUntil(engine, quiescent);
    }

    /** The driver chooses among everything runnable: a started child is queued with its starter. */
    @Override
    public final boolean runtimeChoosesOrder() {
        return false;
    }

    /** Everything runs on the thread that drives the simulation. */
    @Override
    public final boolean allowsOtherThreads() {
        return false;
    }

    /** Due timers are taken by {@link #driveUntil} when nothing is runnable. */
    @Override
    public final boolean hasTimerThread() {
        return false;
    }

    /** Work items run so far. */
    public final long steps() {
        return steps;
    }

    /** Number of items runnable at this instant (after collecting newly scheduled work). */
    public final int runnableCount(Engine engine) {
        collect(engine);
        return runnable.size();
    }

    /** Runs work on the calling thread until {@code stop} holds, moving time when nothing is runnable. */
    public final void driveUntil(Engine engine, StopCondition stop) {
        try (Drive w = Drive.begin(engine)) {
            while (!stop.isStopped()) {
                collect(engine);
                if (runnable.isEmpty()) {
                    long next = engine.timers().nextDeadline();
                    if (next == Long.MAX_VALUE) {
                        throw deadlock();
                    }
                    advanceClock(engine, next);
                } else {
                    runOne(w);
                }
            }
            terminateIfDone(engine, w);
        }
    }

    /** After {@code shutdown()}: the engine terminates once a drive leaves nothing live and nothing runnable. */
    private void terminateIfDone(Engine engine, Drive w) {
        collect(engine);
        if (runnable.isEmpty()) {
            w.terminateIfQuiescent();
        }
    }

    /** Runs everything runnable at the current instant (and what it makes runnable); time stands still. */
    public final void runUntilIdle(Engine engine) {
        try (Drive w = Drive.begin(engine)) {
            collect(engine);
            while (!runnable.isEmpty()) {
                runOne(w);
                collect(engine);
            }
            w.terminateIfQuiescent();
        }
    }

    /** Moves time forward to {@code target}, running everything that falls due on the way, in time order. */
    public final void advanceTo(Engine engine, long target) {
        runUntilIdle(engine);
        while (true) {
            long next = engine.timers().nextDeadline();
            if (next == Long.MAX_VALUE || next - target > 0) {
                break;
            }
            advanceClock(engine, next);
            runUntilIdle(engine);
        }
        if (target - now > 0) {
            now = target;
        }
    }

    /**
     * Everything runnable at this instant (after collecting newly scheduled work), in scheduling order: a
     * read-only view, valid until the simulation runs again.
     */
    public final List<Work> runnable(Engine engine) {
        collect(engine);
        return runnableView;
    }

    /** Whether nothing is runnable and no timer is pending. */
    public final boolean isStuck(Engine engine) {
        collect(engine);
        return runnable.isEmpty() && engine.timers().nextDeadline() == Long.MAX_VALUE;
    }

    /**
     * The index of the item to run next among {@code items} (scheduling order, never empty). Default:
     * the oldest for seed 0, else uniform from the seeded generator.
     */
    protected int pick(ArrayList<Work> items) {
        return seed == 0 ? 0 : random.nextInt(items.size());
    }

    /** The seeded generator, for strategies that need more choices. */
    protected final SplittableRandom random() {
        return random;
    }

    /** Called before each item runs, for traces. */
    protected void beforeRun(Work item) {
    }

    /** Called after each item ran (it may already be queued again), for traces. */
    protected void afterRun(Work item) {
    }

    /** Called when time moves, for traces. */
    protected void timeAdvanced(long nanos) {
    }

    /**
     * Called with the work of every timer due at the current instant, in heap order, before it becomes
     * runnable; may reorder the list in place (e.g. into the order the timers were set).
     */
    protected void orderDue(ArrayList<Work> items) {
    }

    /** The exception for a stuck simulation (nothing runnable, no timer, stop condition false). */
    protected RuntimeException deadlock() {
        return new IllegalStateException("simulation deadlocked at t=" + now + "ns: nothing runnable, no timer");
    }

    /** The fiber a work item continues, or null. */
    static FiberBase<?> fiberOf(Work item) {
        return item.fiber();
    }

    private void runOne(Drive w) {
        Work wk = runnable.remove(pick(runnable));
        steps++;
        beforeRun(wk);
        w.run(wk);
        afterRun(wk);
    }

    private void advanceClock(Engine engine, long next) {
        if (next - now > 0) {
            now = next;
            timeAdvanced(now);
        }
        Work wk = engine.timers().takeDue(now);
        while (wk != null) {
            Work following = wk.queueLink();
            wk.setQueueLink(null);
            due.add(wk);
            wk = following;
        }
        if (due.size() > 1) {
            orderDue(due);
        }
        runnable.addAll(due);
        due.clear();
    }

    private void collect(Engine engine) {
        Drive.collect(engine, runnable);
    }
}
