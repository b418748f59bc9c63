package dev.spindle.internal.run;

/**
 * One pending timer: at {@link #deadline} its {@link #work} is queued. A timer is also the
 * {@link Blocker} of a fiber sleeping on it, so cancelling the fiber removes the timer at once and nothing
 * is left behind.
 */
public final class Timer extends Work implements Blocker {
    /** When it fires, on the engine's clock (nanoseconds). */
    final long deadline;
    /** What to queue when it fires; a sleeping fiber's continuation. */
    final Work work;
    /** The queue that holds it. */
    private final TimerQueue queue;
    /** Where the queue holds it (see TimerQueue), or {@link #NOT_PENDING}. Guarded by the queue's lock. */
    int where = NOT_PENDING;
    /** Its index in its wheel slot's array while in the wheel (see TimerSlot). Guarded by the queue's lock. */
    int index;

    static final int NOT_PENDING = -1;

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

    /** Runs what it was armed with; the queue hands out fired timers themselves, so it never touches work. */
    @Override
    public void doWork(Worker w) {
        work.doWork(w);
    }

    @Override
    public void doHandle(Worker w, Throwable e) {
        work.doHandle(w, e);
    }

    @Override
    public Strand<?> owner() {
        return work.owner();
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
