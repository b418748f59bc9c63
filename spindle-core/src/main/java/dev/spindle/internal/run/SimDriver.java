package dev.spindle.internal.run;

import java.util.ArrayList;
import java.util.SplittableRandom;

/**
 * The simulator's scheduling core: runs an engine's work on one thread in virtual time, choosing the
 * next item among everything runnable at the current instant.
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
 *
 * Single-threaded by construction: every method runs on the thread that drives the simulation.
 * </pre>
 */
public class SimDriver implements Driver {
    /** Everything runnable now, in scheduling order. */
    private final ArrayList<Work> runnable = new ArrayList<>();
    private final SplittableRandom random;
    private final long seed;
    /** Virtual time in nanoseconds. */
    private long now;
    /** Items run so far. */
    private long steps;

    /** A driver whose choices follow {@code seed} (0: scheduling order). */
    public SimDriver(long seed) {
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

    /** Work items run so far. */
    public final long steps() {
        return steps;
    }

    /** Number of items runnable at this instant (after collecting newly scheduled work). */
    public final int runnableCount(Engine engine) {
        collect(engine);
        return runnable.size();
    }

    @Override
    public final void driveUntil(Engine engine, StopCondition stop) {
        Worker w = engine.soleWorker();
        Thread previous = w.thread;
        w.thread = Thread.currentThread();
        try {
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
        } finally {
            w.thread = previous;
        }
    }

    /** Runs everything runnable at the current instant (and what it makes runnable); time stands still. */
    public final void runUntilIdle(Engine engine) {
        Worker w = engine.soleWorker();
        Thread previous = w.thread;
        w.thread = Thread.currentThread();
        try {
            collect(engine);
            while (!runnable.isEmpty()) {
                runOne(w);
                collect(engine);
            }
        } finally {
            w.thread = previous;
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

    /** Called when time moves, for traces. */
    protected void timeAdvanced(long nanos) {
    }

    /** The exception for a stuck simulation (nothing runnable, no timer, stop condition false). */
    protected RuntimeException deadlock() {
        return new IllegalStateException("simulation deadlocked at t=" + now + "ns: nothing runnable, no timer");
    }

    /** The fiber a work item continues, or null. */
    public static Strand<?> fiberOf(Work item) {
        return item instanceof Cont<?> k ? k.fiber : null;
    }

    private void runOne(Worker w) {
        Work wk = runnable.remove(pick(runnable));
        steps++;
        beforeRun(wk);
        w.run(wk);
    }

    private void advanceClock(Engine engine, long next) {
        if (next - now > 0) {
            now = next;
            timeAdvanced(now);
        }
        Work due = engine.timers().takeDue(now);
        while (due != null) {
            Work following = due.next;
            due.next = null;
            runnable.add(due);
            due = following;
        }
    }

    private void collect(Engine engine) {
        Worker w = engine.soleWorker();
        int start = runnable.size();
        for (Work wk = w.popLocal(); wk != null; wk = w.popLocal()) {
            runnable.add(wk);
        }
        java.util.Collections.reverse(runnable.subList(start, runnable.size()));
        for (Work wk = engine.pollGlobal(null); wk != null; wk = engine.pollGlobal(null)) {
            runnable.add(wk);
        }
    }
}
