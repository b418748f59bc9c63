package dev.spindle.bench.soak;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The check at a rest point, once the workload has stopped issuing episodes: every episode ended, the
 * engine quiescent (no live fiber, no pending timer, nothing queued), every flow's messages accounted
 * for (after draining what its queue still holds), every shared mutex free, and the used heap after a
 * full GC within a tolerance of the first rest point's.
 */
final class RestCheck {
    /**
     * Heap growth allowed over the first rest point: the larger of this many bytes and
     * {@link #HEAP_GROWTH_FRACTION} of the first value. The soak holds nothing across rest points, so after
     * a full GC the heap holds the runtime's and the JVM's own steady state (a few MiB); the slack covers
     * what the JIT and the JDK allocate lazily as the run goes on, while a leak of one object per fiber or
     * message (hundreds of thousands per interval) exceeds it within a few intervals.
     */
    static final long HEAP_GROWTH_BYTES = 16L << 20;
    /** See {@link #HEAP_GROWTH_BYTES}. */
    static final double HEAP_GROWTH_FRACTION = 0.5;

    private final Scheduler scheduler;
    private final SoakState state;
    private final EngineProbe probe;
    private final Duration quiesceLimit;
    private long firstHeap = -1; // used heap after GC at the first rest point; main thread only

    RestCheck(Scheduler scheduler, SoakState state, EngineProbe probe, Duration quiesceLimit) {
        this.scheduler = scheduler;
        this.state = state;
        this.probe = probe;
        this.quiesceLimit = quiesceLimit;
    }

    /**
     * Waits for the {@code episodes} permits of the running episodes to come back and the engine to rest,
     * then checks; violations go to the state's list. Returns the details for the progress line.
     */
    String check(Semaphore episodes, int permits) throws InterruptedException {
        long deadline = System.nanoTime() + quiesceLimit.toNanos();
        if (!episodes.tryAcquire(permits, quiesceLimit.toNanos(), TimeUnit.NANOSECONDS)) {
            state.violations.add((permits - episodes.availablePermits()) + " episodes still running "
                    + quiesceLimit.toMillis() + " ms after the workload stopped: " + engineState());
            return engineState();
        }
        episodes.release(permits);
        if (!awaitQuiescent(deadline)) {
            state.violations.add("engine not quiescent " + quiesceLimit.toMillis()
                    + " ms after the workload stopped: " + engineState());
            return engineState();
        }
        String messages = drainAndCheckFlows();
        if (!awaitQuiescent(System.nanoTime() + quiesceLimit.toNanos())) {
            state.violations.add("engine not quiescent after the drain: " + engineState());
        }
        for (GuardedMutex m : state.mutexes) {
            if (m.mutex.isLocked() || m.holders() != 0) {
                state.violations.add(m + " at rest: locked=" + m.mutex.isLocked() + ", sections inside="
                        + m.holders());
            }
        }
        return engineState() + ", " + messages + ", " + heap();
    }

    /**
     * Drains every flow of the interval, checks it and forgets it; returns the message counts. A method of
     * its own so that nothing of the interval's flows stays reachable from the frame that measures the heap.
     */
    private String drainAndCheckFlows() {
        Job<Void> drainAll = Job.unit();
        for (Flow f : state.flows) {
            drainAll = drainAll.then(f.drain());
        }
        scheduler.run(drainAll);
        int sent = 0;
        int drained = 0;
        for (Flow f; (f = state.flows.poll()) != null; ) {
            f.check(state.violations);
            sent += f.sentCount();
            drained += f.drainedCount();
        }
        state.messages.add(sent);
        return sent + " messages (" + drained + " drained)";
    }

    private String heap() {
        long used = usedHeapAfterGc();
        if (firstHeap < 0) {
            firstHeap = used;
        }
        long limit = firstHeap + Math.max(HEAP_GROWTH_BYTES, (long) (firstHeap * HEAP_GROWTH_FRACTION));
        String text = String.format("heap %.1f MiB (first %.1f, limit %.1f)", mib(used), mib(firstHeap), mib(limit));
        if (used > limit) {
            state.violations.add("used heap after GC grew beyond the limit: " + text);
        }
        return text;
    }

    /** Used heap after two full collections (the second frees what the first's finalization released). */
    private static long usedHeapAfterGc() {
        System.gc();
        System.gc();
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    private boolean awaitQuiescent(long deadline) throws InterruptedException {
        while (!probe.isQuiescent()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    private String engineState() {
        return "live fibers " + probe.liveFibers() + ", timers " + probe.pendingTimers();
    }

    private static double mib(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }
}
