package dev.spindle.internal.run;

import java.util.Arrays;

/**
 * The timers of one wheel slot, in arming order, in an array. Removing a timer leaves a hole (null) that a
 * later compaction closes, so arming and removing stay O(1) amortized and the order survives removals.
 *
 * <p>INV: {@code timers[i] == null} for {@code i >= fill}; {@code live} is the number of non-null entries
 * below {@code fill}; a held timer {@code t} sits at {@code timers[t.pos]}.
 *
 * <p>Guarded by the lock of the {@link TimerQueue} that owns it.
 */
final class TimerSlot {
    private static final int INITIAL = 16;
    /** An emptied slot gives back an array longer than this, so the memory of a burst is not kept. */
    private static final int KEPT = 256;

    private Timer[] timers = new Timer[INITIAL];
    /** Entries in use, holes included. */
    private int fill;
    /** Timers held. */
    private int live;

    /** Whether the slot holds no timer. */
    boolean isEmpty() {
        return live == 0;
    }

    /** Appends {@code t}. */
    void add(Timer t) {
        if (fill == timers.length) {
            makeRoom();
        }
        timers[fill] = t;
        t.pos = fill++;
        live++;
    }

    /** Removes {@code t}, which this slot holds. */
    void remove(Timer t) {
        timers[t.pos] = null;
        if (--live == 0) {
            emptied(); // every entry below fill is a hole
        }
    }

    /** The earliest deadline held; the slot is not empty. */
    long earliestDeadline() {
        long best = 0;
        boolean found = false;
        for (int i = 0; i < fill; i++) {
            Timer t = timers[i];
            if (t != null && (!found || t.deadline - best < 0)) {
                best = t.deadline;
                found = true;
            }
        }
        return best;
    }

    /**
     * Hands every timer due at {@code now} to {@code queue}'s due chain, in arming order, and closes the
     * holes among the others.
     */
    void takeDue(long now, TimerQueue queue) {
        compact(queue, now);
        if (live == 0) {
            emptied();
        }
    }

    private void emptied() {
        fill = 0;
        if (timers.length > KEPT) {
            timers = new Timer[INITIAL];
        }
    }

    /** Closes the holes when at least half the entries are holes, else doubles the array. */
    private void makeRoom() {
        if (live > fill / 2) {
            timers = Arrays.copyOf(timers, fill * 2);
        } else {
            compact(null, 0);
        }
    }

    /**
     * Moves the held timers to the front, in order, and clears the rest; with a {@code queue}, the timers
     * due at {@code now} go to its due chain instead of staying.
     */
    private void compact(TimerQueue queue, long now) {
        int kept = 0;
        for (int i = 0; i < fill; i++) {
            Timer t = timers[i];
            if (t == null) {
                continue;
            }
            if (queue != null && t.deadline - now <= 0) {
                queue.appendDue(t);
            } else {
                timers[kept] = t;
                t.pos = kept++;
            }
        }
        Arrays.fill(timers, kept, fill, null); // no removed or fired timer stays reachable from here
        fill = kept;
        live = kept;
    }
}
