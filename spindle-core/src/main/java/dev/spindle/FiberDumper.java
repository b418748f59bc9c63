package dev.spindle;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Timer;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Takes fiber dumps and metrics of an engine by walking what the runtime links anyway: the live roots, and
 * under each the cancellation tree (a fiber's live children); what each worker runs now comes from its
 * published running item. No registry of fibers is kept for it, so a dump costs nothing until taken.
 * The walk reads without locks while the fibers run (see {@link FiberSnapshot} for what that means).
 */
final class FiberDumper {
    /** Links counted per queue for the runnable estimate: bounds the walk of a racing queue. */
    private static final int QUEUE_WALK_LIMIT = 1_000_000;

    private FiberDumper() {
    }

    static FiberDump dump(Engine engine) {
        Map<FiberBase<?>, String> running = runningFibers(engine);
        List<FiberSnapshot> out = new ArrayList<>();
        ArrayDeque<FiberImpl<?>> todo = new ArrayDeque<>();
        for (FiberBase<?> root : engine.liveRoots()) {
            todo.push((FiberImpl<?>) root);
            while (!todo.isEmpty()) {
                FiberImpl<?> f = todo.pop();
                ArrayList<FiberImpl<?>> children = new ArrayList<>();
                f.forEachLiveChild(children::add);
                out.add(snapshot(f, running.get(f), children));
                for (int i = children.size() - 1; i >= 0; i--) {
                    todo.push(children.get(i)); // newest first, as listed
                }
            }
        }
        return new FiberDump(engine.name(), Clock.instant(engine), engine.workerCount(), out);
    }

    /**
     * {@code f} as a dump entry (racy reads: see FiberSnapshot), with its live {@code children};
     * {@code worker} names the thread running it now, or null.
     */
    private static FiberSnapshot snapshot(FiberImpl<?> f, String worker, List<FiberImpl<?>> children) {
        List<Long> ids = new ArrayList<>(children.size());
        for (FiberImpl<?> c : children) {
            ids.add(c.id());
        }
        Blocker b = f.lastBlocker();
        FiberSnapshot.State st;
        String on = null;
        if (f.isDone()) {
            st = FiberSnapshot.State.FINISHING;
        } else if (worker != null) {
            st = FiberSnapshot.State.RUNNING;
        } else if (f.isUnstarted() || b == null) {
            st = FiberSnapshot.State.RUNNABLE; // racy read of the flag: a fiber starting now reads as runnable
        } else {
            st = b instanceof Timer ? FiberSnapshot.State.SLEEPING : FiberSnapshot.State.BLOCKED;
            on = describeSafely(b);
        }
        FiberImpl<?> p = f.parent();
        return new FiberSnapshot(f.id(), f.engine().fiberName(f), st, on,
                st == FiberSnapshot.State.RUNNING ? worker : null, p == null ? -1 : p.id(), ids,
                f.isCancelRequested());
    }

    private static String describeSafely(Blocker b) {
        try {
            return b.describe();
        } catch (RuntimeException | StackOverflowError e) {
            return b.getClass().getSimpleName() + " (its description failed: " + e + ")";
        }
    }

    /** The fiber each worker runs now, by the name of the thread driving it. */
    private static Map<FiberBase<?>, String> runningFibers(Engine engine) {
        Map<FiberBase<?>, String> running = new IdentityHashMap<>();
        for (int i = 0; i < engine.workerCount(); i++) {
            Worker w = engine.worker(i);
            int p = w.progress();
            Work item = w.runningItem();
            Thread t = w.driver();
            if ((p & 1) != 0 && item != null && item.fiber() != null && t != null) {
                running.put(item.fiber(), t.getName());
            }
        }
        return running;
    }

    static SchedulerMetrics metrics(Engine engine) {
        long finished = 0;
        long started = engine.externalStartedCount();
        long parks = 0;
        long wakeups = 0;
        long shared = 0;
        long runnable = engine.globalQueueLength(QUEUE_WALK_LIMIT);
        for (int i = 0; i < engine.workerCount(); i++) {
            Worker w = engine.worker(i);
            finished += w.fibersFinishedHere();
            started += w.fibersStartedHere();
            parks += w.parks();
            wakeups += w.wakeups();
            shared += w.sharedItems();
            runnable += w.queuedEstimate(QUEUE_WALK_LIMIT);
        }
        return new SchedulerMetrics(engine.name(), engine.workerCount(), Math.max(0, started - finished), runnable,
                engine.timers().size(), started, finished, parks, wakeups, shared, engine.uncaughtCount());
    }
}
