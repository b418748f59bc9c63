package dev.spindle.internal.run;

/**
 * A unit of work that a {@link Worker} runs: the runtime's only schedulable thing.
 *
 * <p>Work items are linked intrusively through {@link #queueLink}, so queueing one allocates nothing.
 * An item is in at most one queue or stack at a time; whoever holds the queue owns the link.
 */
public abstract class Work {
    /**
     * Intrusive link. Read and written only by the holder of the queue or stack that holds this item (this
     * package's queues use it directly); null when unqueued.
     */
    Work next;

    /** The next item in the queue or stack holding this one. Only the holder of that queue may call it. */
    public final Work queueLink() {
        return next;
    }

    /**
     * Links {@code n} after this item in the queue or stack holding it (null: unlinks). Only the holder of
     * that queue may call it, and the queue's own publication orders the write for other threads.
     */
    public final void setQueueLink(Work n) {
        next = n;
    }

    /**
     * The chain starting at {@code first} (linked through next), reversed if it is longer than {@code length}
     * items; returns its first item. A chain of at most {@code length} items stays as it is.
     */
    static Work reversedIfLonger(Work first, int length) {
        Work probe = first;
        for (int i = 0; i < length && probe != null; i++) {
            probe = probe.next;
        }
        if (probe == null) {
            return first;
        }
        Work done = null;
        while (first != null) {
            Work rest = first.next;
            first.next = done;
            done = first;
            first = rest;
        }
        return done;
    }

    /** Runs this item on worker {@code w}. */
    public abstract void doWork(Worker w);

    /** The fiber this item continues, or null for runtime-internal items: for simulator traces. */
    public FiberBase<?> fiber() {
        return null;
    }

    /**
     * Whether this item can run only on {@code w} (another worker would hand it back to {@code w}): such an
     * item is not worth sharing.
     */
    public boolean boundTo(Worker w) {
        return false;
    }

    /**
     * Receives a failure of this item. The worker loop calls it when {@link #doWork} throws; continuations
     * forward it to the continuation they complete.
     */
    public abstract void doHandle(Worker w, Throwable e);
}
