package dev.spindle.internal.run;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The runtime's view of a fiber: the context every continuation belongs to, holding the cancellation
 * state that bind steps check. The full fiber (tree, joiners, outcome) extends it in the API package.
 *
 * <p>Cancel state is one packed int: bit 0 = cancellation requested, bits 1..30 = depth of nested
 * uncancelable regions, bit 31 = a canceller's turn ({@link #CANCELLING}). The hot-path check is a single
 * volatile read compared with {@code 1} once bit 31 is shifted out ("requested and not masked").
 * Requesters set bit 0 by CAS from any thread; the owner adds a mask unit by CAS (outside a canceller's
 * turn) and removes it by atomic add.
 *
 * @param <A> the type of the fiber's value
 */
public abstract class FiberBase<A> extends Cont<A> {
    /** Bit 0 of the cancel state. */
    protected static final int CANCEL_REQUESTED = 1;
    /** One level of uncancelable nesting in the cancel state. */
    protected static final int MASK_UNIT = 2;
    /**
     * The sign bit of the cancel state: set with the request bit by a canceller that found the fiber
     * unmasked, until it has withdrawn the fiber's wait and asked its children to cancel
     * ({@link #endCancelling}). The fiber does not enter an uncancelable region meanwhile, so the request
     * acts on the fiber as it was when made: a canceller delayed between its request and its walk never
     * reaches a child that the fiber started inside a finalizer.
     */
    private static final int CANCELLING = 1 << 31;

    /** Packed cancel request bit and mask depth. CAS/atomic add from any thread; volatile reads. */
    private volatile int cancelState;

    /** Creates the runtime part of a fiber; it is its own fiber context. */
    protected FiberBase() {
        super();
    }

    /** The engine whose workers run this fiber (and whose {@code close()} waits for it). */
    public abstract Engine engine();

    /** Hot-path check: cancellation requested and not masked. */
    public final boolean cancelPending() {
        return cancelState << 1 == CANCEL_REQUESTED << 1; // the shift drops CANCELLING
    }

    /** Whether cancellation has been requested (masked or not). */
    public final boolean isCancelRequested() {
        return (cancelState & CANCEL_REQUESTED) != 0;
    }

    /**
     * Sets the request bit; returns the previous state, or -1 when cancellation was already requested.
     * A previous state of 0 means the fiber was not masked: then the caller has set {@link #CANCELLING} too,
     * and calls {@link #endCancelling} once it has withdrawn the fiber and walked its children.
     */
    protected final int markCancelRequested() {
        int s;
        int next;
        do {
            s = cancelState;
            if ((s & CANCEL_REQUESTED) != 0) {
                return -1;
            }
            next = s == 0 ? CANCEL_REQUESTED | CANCELLING : s | CANCEL_REQUESTED;
        } while (!CANCEL_STATE.compareAndSet(this, s, next));
        return s;
    }

    /** Ends the canceller's turn begun by a {@link #markCancelRequested} that returned 0. */
    protected final void endCancelling() {
        CANCEL_STATE.getAndBitwiseAnd(this, ~CANCELLING);
    }

    /**
     * Records that this fiber is about to wait at {@code b}. Protocol for every blocking primitive:
     * check {@link #cancelPending()}; call this; enqueue the continuation under the primitive's lock;
     * then call {@link #checkCancelWhileBlocked}. The primitive implements {@link Blocker#removeWaiter}.
     * It is {@link #recordBlocker} followed by {@link #announceBlocked}.
     */
    public final void blockOn(Blocker b) {
        recordBlocker(b);
        announceBlocked(b);
    }

    /**
     * The first half of {@link #blockOn}: makes {@code b} what a canceller finds, in the value slot (see
     * {@link #waitingSlot}). Alone only where the fiber's own continuation may be resumed before the fiber
     * is known to wait (a choose whose continuation is the fiber records its pick before any alternative
     * can commit, and announces it once it waits).
     */
    public final void recordBlocker(Blocker b) {
        // The volatile write is the fence of the cancel protocol (write the slot, then read the cancel
        // state). A fiber that waits on the same blocker again (ping-pong over one channel) skips it: only
        // this fiber writes a blocker into the slot, and a resumer writes it only when the job has ended, so
        // the earlier write of the same blocker is the latest one a canceller can read, and it is visible.
        if (resumeValue() != b) {
            VALUE.setVolatile(this, b);
        }
    }

    /** The second half of {@link #blockOn}: tells the engine's observer (simulator traces, deadlock reports). */
    public abstract void announceBlocked(Blocker b);

    /** After enqueueing at {@code b}: withdraws the waiter at once if cancellation arrived meanwhile. */
    public abstract void checkCancelWhileBlocked(Worker w, Blocker b);

    /**
     * The value slot read as what the fiber waits on (a volatile read: the canceller's half of the
     * blocking protocol's Dekker pair). While the fiber runs or waits, its value slot holds the last
     * {@link Blocker} it blocked on, unless a resumer of the fiber's own continuation has since stored the
     * value that ends its job; the caller tests the type.
     */
    protected final Object waitingSlot() {
        return VALUE.getVolatile(this);
    }

    /** Enters an uncancelable region, once no canceller is taking its turn ({@link #CANCELLING}). Owner only. */
    public final void mask() {
        int s = cancelState;
        if (s < 0 || !CANCEL_STATE.compareAndSet(this, s, s + MASK_UNIT)) {
            maskContended();
        }
    }

    private void maskContended() {
        int spins = 0;
        int s;
        while ((s = cancelState) < 0 || !CANCEL_STATE.compareAndSet(this, s, s + MASK_UNIT)) {
            if (s < 0) {
                spins = SpinLock.backOff(spins);
            }
        }
    }

    /** Leaves an uncancelable region; true when cancellation is now pending. Owner only. */
    public final boolean unmask() {
        int s = (int) CANCEL_STATE.getAndAdd(this, -MASK_UNIT) - MASK_UNIT;
        return s == CANCEL_REQUESTED;
    }

    private static final VarHandle CANCEL_STATE =
            SpinLock.handle(MethodHandles.lookup(), FiberBase.class, "cancelState");
}
