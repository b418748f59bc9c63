package dev.spindle.internal.select;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.WorkFifo;
import dev.spindle.internal.run.Worker;

/**
 * A FIFO ({@link WorkFifo}) of waiting entries: plain continuations, {@link ThreadWaiter}s or
 * {@link Waiter}s. Not thread-safe: the owning primitive guards it with its spin lock (its own, or the
 * one {@link LockedWaitQueue} adds).
 *
 * <p>Stale entries (alternatives of a choose decided elsewhere) are dropped lazily: from the head on every
 * append, and by a full sweep whenever the queue has doubled since the last one, so a channel that only
 * ever sees losing alternatives (a {@code choose} with a timeout in a loop) stays small. Amortised O(1).
 *
 */
public class WaitQueue extends WorkFifo {
    /** Smallest size at which a full sweep for stale entries runs. */
    private static final int MIN_SWEEP = 16;

    /** Size at which the next full sweep runs. Guarded by the owner's lock. */
    private int sweepAt = MIN_SWEEP;

    /** An empty queue. */
    public WaitQueue() {
    }

    /** Appends {@code e} (dropping stale entries first, see the class comment). */
    public final void add(Work e) {
        dropStaleHead();
        if (size() >= sweepAt) {
            sweep();
        }
        append(e);
    }

    /**
     * Waits as {@code entry} (the continuation of {@code self}, or a node that carries it), following the
     * protocol of {@link FiberBase#blockOn}, in two halves around the release of the owning primitive's spin
     * lock, which the caller does in between with its own constant VarHandle (a handle passed in here
     * would cost a generic call wherever this is not inlined). This half, under the lock, once the caller
     * found that it must wait: records {@code b} as the fiber's blocker and links the entry.
     */
    public final void block(FiberBase<?> self, Blocker b, Work entry) {
        self.blockOn(b);
        add(entry);
    }

    /**
     * The second half of {@link #block}, after the caller released its lock: withdraws the entry again at
     * once if cancellation arrived meanwhile.
     */
    public final void blocked(Worker w, FiberBase<?> self, Blocker b) {
        self.checkCancelWhileBlocked(w, b);
    }

    /**
     * Commits ({@link Waiter#commit}) and unlinks the oldest entry that can still be committed by a partner
     * outside any choose, dropping stale ones on the way; null when none. Caller holds the owner's lock.
     */
    public final Work pollCommitted() {
        while (!isEmpty()) {
            Work e = tail().queueLink();
            boolean ours = Waiter.commit(e);
            removeAfter(tail());
            if (ours) {
                return e;
            }
        }
        return null;
    }

    /** Unlinks {@code entry} if it is still queued here; true when this call did. Caller holds the lock. */
    public final boolean remove(Work entry) {
        Work prev = tail();
        for (int n = size(); n > 0; n--) {
            Work e = prev.queueLink();
            if (e == entry) {
                removeAfter(prev);
                return true;
            }
            prev = e;
        }
        return false;
    }

    /** Entries that can still be committed (stale alternatives excluded). Caller holds the lock. O(n). */
    public final int live() {
        int live = 0;
        Work e = tail();
        for (int n = size(); n > 0; n--) {
            e = e.queueLink();
            if (!Waiter.isStale(e)) {
                live++;
            }
        }
        return live;
    }

    /** Removes every entry and returns them oldest first, linked through next and null-terminated. */
    public final Work drain() {
        sweepAt = MIN_SWEEP;
        return removeAll();
    }

    /**
     * For cancellation ({@link dev.spindle.internal.run.Blocker#removeWaiter}): removes the first entry
     * that is not a {@link Waiter} and waits for {@code fiber} (a plain blocked take or read), or a plain
     * giver of {@code fiber}, and returns it; returns null when there is none, or when the fiber entered it
     * inside an uncancelable region. Entries of a choose are never removed here: their pick is the fiber's
     * blocker. The caller holds the lock that guards this queue.
     */
    public final Work removePlainOf(FiberBase<?> fiber) {
        Work prev = tail();
        for (int n = size(); n > 0; n--) {
            Work e = prev.queueLink();
            if (Waiter.pickOf(e) == null && Waiter.isOf(e, fiber)) {
                // read under the lock, after the enqueue that the fiber's mask preceded
                return fiber.cancelPending() ? removeAfter(prev) : null;
            }
            prev = e;
        }
        return null;
    }

    private void dropStaleHead() {
        while (!isEmpty() && Waiter.isStale(tail().queueLink())) {
            removeAfter(tail());
        }
    }

    private void sweep() {
        Work prev = tail();
        for (int n = size(); n > 0; n--) {
            Work e = prev.queueLink();
            if (Waiter.isStale(e)) {
                removeAfter(prev);
            } else {
                prev = e;
            }
        }
        sweepAt = Math.max(MIN_SWEEP, 2 * size());
    }
}
