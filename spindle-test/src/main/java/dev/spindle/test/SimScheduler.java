package dev.spindle.test;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.ConfinedThread;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.FiberObserver;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Work;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * The simulator's driver and fiber observer in one: the {@link SimDriver} loop with a
 * {@link Choice} strategy plugged into {@code pick}, a registry of live fibers, and the {@link Trace}.
 *
 * <pre>
 * Implementation overview
 * =======================
 * Fibers
 *   Every fiber gets a FiberInfo when it starts (observer callback from the fiber's constructor): a
 *   number in start order, its starter (the fiber running at that moment, or none for fibers started by
 *   the test), later its name. Numbers, not identity hashes, label fibers in traces and reports, so one
 *   schedule gives byte-identical output.
 *
 * What a fiber waits on
 *   blocked(fiber, b) records b (a fiber being joined is kept as its FiberInfo; any other blocker as its
 *   description, with identity hashes made stable: a fiber's hash becomes its label, so "locked by
 *   fiber@1b6d3586" names the holder). blocked() may be called while the primitive holds its own lock
 *   (which is not reentrant, and describe() takes it): so descriptions are taken when the step ends
 *   (afterRun, or before any report), never inside the callback, and afresh for deadlock reports.
 *   The record is cleared whenever
 *   one of the fiber's items runs: a fiber that waits without a blocker (race/all/any wait for their
 *   children through callbacks) is reported as waiting for its live children instead. The core's
 *   Bridge.blockerOf keeps the last blocker even after the fiber moved on, so it is not used for reports.
 *
 * Who is running
 *   beforeRun sets the running fiber from the item's owner; afterRun clears it. In a driven engine the
 *   core queues a started child (instead of running it inline, work-first), so every fiber's work runs
 *   in steps of its own and the fiber running when another starts is its starter.
 *
 * Timers due together
 *   The heap gives equal deadlines in no particular order; orderDue sorts them by the order in which their
 *   fibers blocked, so seed 0 wakes sleepers in the order they went to sleep.
 *
 * Single-threaded: everything runs on the thread driving the simulation.
 * </pre>
 */
final class SimScheduler extends SimDriver implements FiberObserver {
    private final Schedule schedule;
    private final Choice choice;
    private final Trace trace;
    private final long maxSteps;
    /** The instant virtual time 0 stands for. */
    private final Instant origin;
    /** Splits the generators of fibers' Job.random(), in the order fibers first ask. */
    private final SplittableRandom userRandom;
    private static final long USER_RANDOM_SALT = 0x9E3779B97F4A7C15L;
    private final StableText stable = new StableText();
    /** Live fibers by identity. */
    private final IdentityHashMap<FiberBase<?>, FiberInfo> live = new IdentityHashMap<>();
    /** Live fibers by number (start order), for reports. */
    private final TreeMap<Integer, FiberInfo> liveById = new TreeMap<>();
    private final Choice.FiberLookup lookup = this::infoOf;
    /** The engine driven; set once after construction (the engine needs its driver first). */
    private Engine engine;
    /** The fiber whose item is running, or null between steps. */
    private FiberInfo current;
    private int nextId = 1;
    private long blockSequence;
    /** Blocks of the current step whose blockers are described when it ends. */
    private final ArrayList<PendingBlock> undescribed = new ArrayList<>();

    /** A block whose blocker is described when the step ends. */
    private record PendingBlock(FiberInfo fiber, TraceEvent event, Blocker blocker) {
    }

    SimScheduler(Schedule schedule, int traceLimit, long maxSteps, Instant origin) {
        super(schedule.seed());
        this.schedule = schedule;
        this.origin = origin;
        // Its own stream, so that what user code draws never shifts the schedule's choices.
        this.userRandom = new SplittableRandom(schedule.seed() ^ USER_RANDOM_SALT);
        this.choice = schedule.newChoice();
        this.trace = new Trace(traceLimit);
        this.maxSteps = maxSteps;
    }

    /** Attaches the engine, and confines it to the calling thread (the common scheduler is refused there). */
    void attach(Engine e) {
        this.engine = e;
        ConfinedThread.claim(e);
    }

    /** Ends the calling thread's confinement to this simulation. */
    void detach() {
        ConfinedThread.release(engine);
    }

    Trace trace() {
        describePending();
        return trace;
    }

    Schedule schedule() {
        return schedule;
    }

    // ---------------------------------------------------------------- SimDriver hooks

    @Override
    protected int pick(ArrayList<Work> items) {
        return choice.pick(items, lookup); // every step, even with one choice: PCT counts steps
    }

    @Override
    protected void beforeRun(Work item) {
        if (steps() > maxSteps) {
            throw new IllegalStateException("simulation exceeded " + maxSteps + " steps at t="
                    + VirtualTime.format(nanoTime()) + " under schedule " + schedule
                    + ": a fiber may be spinning (yielding in a loop) while it waits for another");
        }
        FiberInfo f = infoOf(item);
        current = f;
        if (f != null) {
            f.running();
            trace.add(new TraceEvent(TraceEvent.Kind.RUN, nanoTime(), steps(), f, null, null));
        } else {
            trace.add(new TraceEvent(TraceEvent.Kind.RUN_INTERNAL, nanoTime(), steps(), null, null,
                    internalWork(item)));
        }
    }

    @Override
    protected void afterRun(Work item) {
        current = null;
        describePending();
    }

    @Override
    protected void timeAdvanced(long nanos) {
        trace.add(new TraceEvent(TraceEvent.Kind.TIME, nanos, 0, null, null, null));
    }

    @Override
    protected void orderDue(ArrayList<Work> items) {
        items.sort(Comparator.comparingLong(this::blockOrder)); // stable: unknown items keep heap order
    }

    @Override
    protected RuntimeException deadlock() {
        return new DeadlockException(waitingFibers(), nanoTime(), schedule.toString(), joinCycle());
    }

    // ---------------------------------------------------------------- FiberObserver

    @Override
    public void started(FiberBase<?> fiber) {
        FiberInfo starter = current;
        FiberInfo f = new FiberInfo(nextId++, starter);
        live.put(fiber, f);
        liveById.put(f.id, f);
        stable.fiber(fiber, f);
        choice.fiberStarted(f);
        trace.add(new TraceEvent(TraceEvent.Kind.START, nanoTime(), 0, starter, f, null));
    }

    @Override
    public void finished(FiberBase<?> fiber) {
        FiberInfo f = live.remove(fiber);
        if (f != null) {
            liveById.remove(f.id);
            f.finished = true;
            f.running();
            trace.add(new TraceEvent(TraceEvent.Kind.FINISH, nanoTime(), 0, f, null, null));
            if (f == current) {
                current = null;
            }
        }
    }

    @Override
    public void blocked(FiberBase<?> fiber, Blocker blocker) {
        FiberInfo f = live.get(fiber);
        if (f == null || blocker.waitsForChildren()) {
            return; // race/all/any: reported from the fiber's live children instead
        }
        f.blockSequence = ++blockSequence;
        FiberInfo target = blocker instanceof FiberBase<?> s ? live.get(s) : null;
        TraceEvent e = new TraceEvent(TraceEvent.Kind.BLOCK, nanoTime(), 0, f, target, null);
        if (target != null || blocker instanceof FiberBase<?>) {
            f.joinTarget = target;
            f.blocker = null;
            f.waitsOn = target == null ? "join of a finished fiber" : null;
            e.text = f.waitsOn;
        } else {
            f.joinTarget = null;
            f.blocker = blocker;
            f.waitsOn = null;
            undescribed.add(new PendingBlock(f, e, blocker)); // its lock may be held now: describe later
        }
        trace.add(e);
    }

    @Override
    public RandomGenerator newRandom() {
        return userRandom.split();
    }

    /** Virtual time from the start instant ({@code Builder.startAt}), so runs are reproducible. */
    @Override
    public Instant instant(long nanos) {
        return origin.plusNanos(nanos);
    }

    @Override
    public void named(FiberBase<?> fiber, String name) {
        FiberInfo f = live.get(fiber);
        if (f != null) {
            f.name = name;
        }
    }

    // ---------------------------------------------------------------- queries for Simulation

    /** Records a note of the test, attributed to the running fiber (if any). */
    void note(String text) {
        trace.add(new TraceEvent(TraceEvent.Kind.NOTE, nanoTime(), 0, current, null, stable.of(text)));
    }

    /** Records a failure that reached the uncaught handler. */
    void uncaught(Throwable e) {
        trace.add(new TraceEvent(TraceEvent.Kind.UNCAUGHT, nanoTime(), 0, current, null, stable.of(e.toString())));
    }

    /** Number of fibers started and not finished. */
    int liveCount() {
        return live.size();
    }

    /** Live fibers that have no runnable work, with what they wait on, in start order. */
    List<BlockedFiber> waitingFibers() {
        describePending();
        IdentityHashMap<FiberInfo, Boolean> runnableFibers = new IdentityHashMap<>();
        for (Work wk : runnable(engine)) {
            FiberInfo f = infoOf(wk);
            if (f != null) {
                runnableFibers.put(f, Boolean.TRUE);
            }
        }
        List<BlockedFiber> out = new ArrayList<>();
        for (FiberInfo f : liveById.values()) {
            if (f != current && !runnableFibers.containsKey(f)) {
                out.add(new BlockedFiber(f.id, f.name, waitText(f)));
            }
        }
        return out;
    }

    private String waitText(FiberInfo f) {
        if (f.blocker != null) {
            return describe(f.blocker); // afresh: holders and queue lengths as they are now
        }
        if (f.isWaiting()) {
            return f.waitDescription();
        }
        StringBuilder children = new StringBuilder();
        for (FiberInfo c : liveById.values()) {
            if (c.starter == f) {
                children.append(children.length() == 0 ? "" : ", ").append(c.label());
            }
        }
        return children.length() > 0
                ? "its children " + children + " (race/all/any/timeout)"
                : "nothing the simulator can see (a future or a thread outside the simulation?)";
    }

    /** A cycle of fibers joining each other, as text, or null. */
    private String joinCycle() {
        for (FiberInfo start : liveById.values()) {
            Map<FiberInfo, Boolean> seen = new IdentityHashMap<>();
            FiberInfo f = start;
            while (f != null && !seen.containsKey(f)) {
                seen.put(f, Boolean.TRUE);
                f = f.joinTarget;
            }
            if (f == start) {
                StringBuilder sb = new StringBuilder(start.label());
                for (FiberInfo g = start.joinTarget; g != start; g = g.joinTarget) {
                    sb.append(" -> ").append(g.label());
                }
                return sb.append(" -> ").append(start.label()).append(" (each joins the next)").toString();
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- helpers

    private FiberInfo infoOf(Work item) {
        FiberBase<?> s = fiberOf(item);
        return s == null ? null : live.get(s);
    }

    /** Describes the blockers recorded during the step that just ended (their locks are free now). */
    private void describePending() {
        for (PendingBlock p : undescribed) {
            String text = describe(p.blocker());
            p.event().text = text;
            if (p.fiber().blocker == p.blocker()) {
                p.fiber().waitsOn = text;
            }
        }
        undescribed.clear();
    }

    /** What a work item that belongs to no fiber does, for the trace (known core items by class name). */
    private static String internalWork(Work item) {
        String type = item.getClass().getSimpleName();
        return switch (type) {
            case "Done" -> "race/all/any sees a child end";
            case "BlockingJoiner" -> "wakes the test thread: its job ended";
            case "FutureJoiner" -> "completes a started job's future";
            case "RootUnlinker" -> "forgets a finished root fiber";
            case "FailWork" -> "delivers a failure or cancellation";
            case "JobWork" -> "resumes a deep job";
            default -> type;
        };
    }

    private long blockOrder(Work item) {
        FiberInfo f = infoOf(item);
        return f == null ? Long.MAX_VALUE : f.blockSequence;
    }

    private String describe(Blocker b) {
        try {
            return stable.of(b.describe());
        } catch (RuntimeException | StackOverflowError e) {
            return b.getClass().getSimpleName() + " (its description failed: " + e + ")";
        }
    }
}
