package dev.spindle.internal.run;

/**
 * A unit of work that a {@link Worker} runs: the runtime's only schedulable thing.
 *
 * <p>Work items are linked intrusively through {@link #next}, so queueing one allocates nothing.
 * An item is in at most one queue or stack at a time; whoever holds the queue owns the link.
 */
public abstract class Work {
    /** Intrusive link. Written by the owner of the queue or stack that holds this item; null when unqueued. */
    public Work next;

    /** Runs this item on worker {@code w}. */
    public abstract void doWork(Worker w);

    /** The fiber this item continues, or null for runtime-internal items: for simulator traces. */
    public Strand<?> owner() {
        return null;
    }

    /**
     * Receives a failure of this item. The worker loop calls it when {@link #doWork} throws; continuations
     * forward it to the continuation they complete.
     */
    public abstract void doHandle(Worker w, Throwable e);
}
