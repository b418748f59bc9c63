package dev.spindle.internal.run;



/**
 * One pending timer: at {@link #deadline} its {@link #work} is queued. A timer is also the
 * {@link Blocker} of a fiber sleeping on it, so cancelling the fiber removes the timer at once and nothing
 * is left behind.
 */
public final class Timer implements Blocker {
    /** When it fires, on the engine's clock (nanoseconds). */
    final long deadline;
    /** What to queue when it fires; a sleeping fiber's continuation. */
    final Work work;
    /** The queue that holds it. */
    private final TimerQueue queue;
    /** Position in the queue's heap, or -1 once fired or removed. Guarded by the queue's lock. */
    int heapIndex = -1;

    /** Creates a timer that queues {@code work} at {@code deadline}; {@link TimerQueue#schedule} arms it. */
    public Timer(TimerQueue queue, long deadline, Work work) {
        this.queue = queue;
        this.deadline = deadline;
        this.work = work;
    }

    /** Removes this timer if it has not fired; true when this call removed it. */
    public boolean cancel() {
        return queue.remove(this);
    }

    @Override
    public Cont<?> removeWaiter(Strand<?> fiber) {
        if (work instanceof Cont<?> k && k.fiber == fiber && queue.remove(this)) {
            return k;
        }
        return null;
    }

    @Override
    public String describe() {
        return "timer due in " + Math.max(0, deadline - queue.engine.nanoTime()) / 1_000_000 + " ms";
    }
}
