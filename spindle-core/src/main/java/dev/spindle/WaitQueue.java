package dev.spindle;

import dev.spindle.internal.run.Strand;
import dev.spindle.internal.run.Work;

/**
 * A FIFO of waiting entries (plain continuations or {@link Waiter}s) linked through {@code Work.next} as a
 * circular list that holds its tail: O(1) append, O(1) removal of the head or of the entry after a known
 * one. Not thread-safe: the owning primitive guards it with its spin lock.
 *
 * <p>Stale entries (alternatives of a choose decided elsewhere) are dropped lazily: from the head on every
 * append, and by a full sweep whenever the queue has doubled since the last one, so a channel that only
 * ever sees losing alternatives (a {@code choose} with a timeout in a loop) stays small. Amortised O(1).
 *
 * <p>INV: {@code size} is the number of entries; {@code tail == null} iff {@code size == 0}.
 */
final class WaitQueue {
    /** Smallest size at which a full sweep for stale entries runs. */
    private static final int MIN_SWEEP = 16;

    /** Newest entry; {@code tail.next} is the oldest. Guarded by the owner's lock. */
    private Work tail;
    /** Number of entries. Guarded by the owner's lock. */
    private int size;
    /** Size at which the next full sweep runs. Guarded by the owner's lock. */
    private int sweepAt = MIN_SWEEP;

    /** Whether there are no entries. */
    boolean isEmpty() {
        return tail == null;
    }

    /** Number of entries, stale ones included. */
    int size() {
        return size;
    }

    /** The newest entry, whose {@code next} is the oldest; null when empty. Start scans here. */
    Work tail() {
        return tail;
    }

    /** Appends {@code e} (dropping stale entries first, see the class comment). */
    void add(Work e) {
        dropStaleHead();
        if (size >= sweepAt) {
            sweep();
        }
        Work t = tail;
        if (t == null) {
            e.next = e;
        } else {
            e.next = t.next;
            t.next = e;
        }
        tail = e;
        size++;
    }

    /**
     * Commits ({@link Waiter#commit}) and unlinks the oldest entry that can still be committed by a partner
     * outside any choose, dropping stale ones on the way; null when none. Caller holds the owner's lock.
     */
    Work pollCommitted() {
        while (tail != null) {
            Work e = tail.next;
            boolean ours = Waiter.commit(e);
            removeAfter(tail);
            if (ours) {
                return e;
            }
        }
        return null;
    }

    /** Removes and returns the entry after {@code prev} ({@code prev == tail()} removes the head). */
    Work removeAfter(Work prev) {
        Work e = prev.next;
        if (e == prev) {
            tail = null;
        } else {
            prev.next = e.next;
            if (e == tail) {
                tail = prev;
            }
        }
        e.next = null;
        size--;
        return e;
    }

    /** Removes every entry and returns them oldest first, linked through next and null-terminated. */
    Work removeAll() {
        Work t = tail;
        if (t == null) {
            return null;
        }
        Work head = t.next;
        t.next = null;
        tail = null;
        size = 0;
        sweepAt = MIN_SWEEP;
        return head;
    }

    /**
     * Removes the first entry that is not a {@link Waiter} and waits for {@code fiber} (a plain blocked
     * take or read), or a plain giver of {@code fiber}; returns it, or null. Entries of a choose are never
     * removed here: their pick is the fiber's blocker.
     */
    Work removePlainOf(Strand<?> fiber) {
        Work prev = tail;
        for (int n = size; n > 0; n--) {
            Work e = prev.next;
            if (Waiter.pickOf(e) == null && Waiter.isOf(e, fiber)) {
                return removeAfter(prev);
            }
            prev = e;
        }
        return null;
    }

    private void dropStaleHead() {
        while (tail != null && Waiter.isStale(tail.next)) {
            removeAfter(tail);
        }
    }

    private void sweep() {
        Work prev = tail;
        for (int n = size; n > 0; n--) {
            Work e = prev.next;
            if (Waiter.isStale(e)) {
                removeAfter(prev);
            } else {
                prev = e;
            }
        }
        sweepAt = Math.max(MIN_SWEEP, 2 * size);
    }
}
