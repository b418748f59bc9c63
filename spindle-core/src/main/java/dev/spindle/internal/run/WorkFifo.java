package dev.spindle.internal.run;

/**
 * A FIFO of work items linked through {@link Work#next} as a circular list that holds its tail
 * ({@code tail.next} is the oldest): O(1) append, O(1) removal of the oldest entry or of the entry after a
 * known one, O(1) removal of everything. The queues of waiters behind channels and the coordination
 * primitives build on it. Not thread-safe: the owner guards it with its lock.
 *
 * <p>INV: {@code size} is the number of entries; {@code tail == null} iff {@code size == 0}; an entry is in
 * at most one queue, and while it is, only that queue writes its {@code next}.
 */
public class WorkFifo {
    /** Newest entry; {@code tail.next} is the oldest. */
    private Work tail;
    /** Number of entries. */
    private int size;

    /** An empty queue. */
    protected WorkFifo() {
    }

    /** Whether there are no entries. */
    public final boolean isEmpty() {
        return tail == null;
    }

    /** Number of entries. */
    public final int size() {
        return size;
    }

    /** The newest entry, whose {@code next} is the oldest; null when empty. Scans start here. */
    public final Work tail() {
        return tail;
    }

    /** Appends {@code e}, which must not be in any queue. */
    public final void append(Work e) {
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

    /** Removes and returns the entry after {@code prev} ({@code prev == tail()} removes the oldest). */
    public final Work removeAfter(Work prev) {
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
    public final Work removeAll() {
        Work t = tail;
        if (t == null) {
            return null;
        }
        Work head = t.next;
        t.next = null;
        tail = null;
        size = 0;
        return head;
    }
}
