package dev.spindle.sync;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Strand;

/**
 * An entry of a {@link WaitQueue} that is not a fiber's own continuation: a thread, a timed wait, a
 * condition-variable wait, a borrower, or a fiber of a second scheduler. It is a {@link Cont} so that it can
 * sit in the same intrusive list, and so that a canceller which withdraws it can fail it like any
 * continuation ({@code doHandle} with the cancel signal).
 *
 * @param <A> the type of value it continues with when run as work
 */
abstract class Waiter<A> extends Cont<A> {
    /** Creates a waiter of {@code fiber}; null when no cancellation may withdraw it (threads, re-locks). */
    Waiter(Strand<?> fiber) {
        super(fiber);
    }

    /**
     * Resumes this waiter with the primitive's grant {@code v} (null, or a pool's item). Called exactly
     * once, by whoever unlinked it from its queue, after releasing the queue's lock. Must not block.
     */
    abstract void wake(Object v);

    /** Who waits: the fiber, or the thread of a blocking call (for ownership and diagnostics). */
    Object identity() {
        return fiber;
    }
}
