package dev.spindle.internal.diag;

import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * The starvation watchdog, after Go's sysmon: finds workers that have been inside one work item for
 * longer than a threshold, by sampling, at no cost to the workers beyond three plain stores per item (Worker.run).
 *
 * <pre>
 * Implementation overview
 * =======================
 * Each worker's progress count changes at the start and the end of every item and is odd while one runs
 * (Worker.progress). {@link #sample} runs every threshold/2 on the watchdog thread (or when a test calls
 * it with its own clock) and remembers, per worker, the count it last saw and when it first saw it. A
 * count that is odd and has not changed for the threshold means one item has run at least that long: the
 * worker is reported, with the stack of the thread driving it, once per episode; a new count starts a new
 * episode, and so does a parked worker (a job that calls scheduler.run drives the worker inside its item,
 * and may park there with nothing to run: nothing starves). The stack is taken before the count is read
 * again: if the count moved meanwhile the stack may belong to a later item, and nothing is reported.
 * Single-threaded by construction: the watchdog thread (or the test) is the only caller.
 * </pre>
 */
public final class Watchdog {
    private final Engine engine;
    private final long thresholdNanos;
    private final Consumer<Starvation> sink;
    private final int[] seen;
    private final long[] seenSince;
    private final boolean[] reported;
    private boolean started;

    /** Watches {@code engine}'s workers; reports go to {@code sink}. */
    public Watchdog(Engine engine, long thresholdNanos, Consumer<Starvation> sink) {
        if (thresholdNanos <= 0) {
            throw new IllegalArgumentException("threshold must be positive, was " + thresholdNanos + " ns");
        }
        this.engine = engine;
        this.thresholdNanos = thresholdNanos;
        this.sink = sink;
        int n = engine.workerCount();
        this.seen = new int[n];
        this.seenSince = new long[n];
        this.reported = new boolean[n];
    }

    /** The threshold in nanoseconds. */
    public long thresholdNanos() {
        return thresholdNanos;
    }

    /** Looks at every worker at time {@code now} (nanoseconds, any origin) and reports new episodes. */
    public void sample(long now) {
        for (int i = 0; i < seen.length; i++) {
            Worker w = engine.worker(i);
            int p = w.progress();
            if (!started || p != seen[i] || w.isParked()) { // parked: out of work, even inside a nested drive
                seen[i] = p;
                seenSince[i] = now;
                reported[i] = false;
            } else if ((p & 1) != 0 && !reported[i] && now - seenSince[i] >= thresholdNanos) {
                report(i, w, p, now);
            }
        }
        started = true;
    }

    private void report(int i, Worker w, int p, long now) {
        Thread t = w.driver();
        StackTraceElement[] stack = t == null ? new StackTraceElement[0] : t.getStackTrace();
        Work item = w.runningItem();
        if (w.progress() != p) {
            return; // it moved on while we looked: the next sample starts a new episode
        }
        reported[i] = true;
        FiberBase<?> fiber = item == null ? null : item.fiber();
        long id = fiber == null ? -1 : DumpText.idOf(fiber);
        String name = fiber == null ? null : fiber.engine().fiberName(fiber);
        sink.accept(new Starvation(engine.name(), t == null ? "worker-" + i : t.getName(), id, name,
                Duration.ofNanos(now - seenSince[i]), List.of(stack)));
    }
}
