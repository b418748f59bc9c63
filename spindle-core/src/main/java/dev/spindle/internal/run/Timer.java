package dev.spindle.internal.run;

/**
 * One pending timer: at {@link #deadline} its {@link #work} is queued. A timer is also the
 * {@link Blocker} of a fiber sleeping on it, so cancelling the fiber removes the timer at once and nothing
 * is left behind.
 *
 * @implNote 32 bytes (compressed oops; pinned by MemoryFootprintTest): a million sleepers keep a million
 *     timers, and a young collection copies each of them. So a timer holds no reference to its queue (a
 *     canceller names it, a sleeping fiber's engine has it) and one int says where the queue holds it.
 */
public final class Timer extends Work implements Blocker {
    /**
     * When it fires, on the engine's clock (nanoseconds). Set at construction; changed only by the queue,
     * for a timer armed when its tick had already passed, to the start of the current tick: later than
     * asked but still not after now, so it is due all the same (see TimerQueue's INV). Guarded by the
     * queue's lock once armed.
     */
    long deadline;
    /** What to queue when it fires; a sleeping fiber's continuation. */
    final Work work;
    /**
     * Where the queue holds it: {@code i >= 0}, at index i of the wheel slot of its deadline's tick (see
     * TimerSlot); {@link #farIndex}{@code (i)}, at index i of the far heap; or {@link #NOT_PENDING}.
     * Guarded by the queue's lock.
     */
    int pos = NOT_PENDING;

    static final int NOT_PENDING = -1;

    /** The {@link #pos} of a timer at index {@code i} of the far heap (and, applied again, the index). */
    static int farIndex(int i) {
        return -2 - i;
    }

    /** Creates a timer that queues {@code work} at {@code deadline}; {@link TimerQueue#schedule} arms it. */
    public Timer(long deadline, Work work) {
        this.deadline = deadline;
        this.work = work;
    }

    /**
     * Runs what it was armed with; the queue hands out fired timers themselves, so it never touches work. A
     * continuation (a sleeper) resumes with null, stored now rather than when armed: while a fiber sleeps, a
     * fiber that is its own continuation keeps its blocker, this timer, in its value slot.
     */
    @Override
    public void doWork(Worker w) {
        if (work instanceof Cont<?> k) {
            k.setResumeValue(null);
        }
        work.doWork(w);
    }

    @Override
    public void doHandle(Worker w, Throwable e) {
        work.doHandle(w, e);
    }

    @Override
    public FiberBase<?> fiber() {
        return work.fiber();
    }

    @Override
    public Cont<?> removeWaiter(FiberBase<?> fiber) {
        // a timer serves one sleep, and the canceller read it from the slot written after any mask
        if (work instanceof Cont<?> k && k.fiber() == fiber && fiber.cancelPending()
                && fiber.engine().timers().cancel(this)) {
            return k;
        }
        return null;
    }

    /** Only a sleeping fiber's blocker is ever described, and its continuation names the engine. */
    @Override
    public String describe() {
        FiberBase<?> sleeper = fiber();
        if (sleeper == null) {
            return "timer";
        }
        return "timer due in " + Math.max(0, deadline - sleeper.engine().nanoTime()) / 1_000_000 + " ms";
    }
}
