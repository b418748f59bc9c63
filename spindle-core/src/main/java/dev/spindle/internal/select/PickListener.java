package dev.spindle.internal.select;

import dev.spindle.internal.run.Worker;

/**
 * Something to do when a {@link Pick} is decided in favour of an alternative outside
 * {@code [first, end)}: signal a nack ({@code Alt.withNack}), remove the timer of an {@code Alt.after}.
 *
 * <p>Listeners form a LIFO list through {@link #next}, pushed while the pick is claimed and read-only once
 * it is picked; whoever picks it fires them.
 */
public abstract class PickListener {
    /** First alternative number this listener covers. Immutable. */
    private final int first;
    /**
     * One past the last alternative number covered; {@link Integer#MAX_VALUE} while the covered
     * alternatives are still being instantiated. Written once by the choosing fiber (benign race: see
     * {@link Pick}'s overview, "Nack ranges"); read by the picker.
     */
    private int end = Integer.MAX_VALUE;
    /** Next older listener of the same pick. Written before publication under the pick's claim. */
    PickListener next;

    /** A listener covering the alternatives numbered from {@code first} on (until {@link #endAt}). */
    protected PickListener(int first) {
        this.first = first;
    }

    /** A listener covering the alternatives numbered {@code first} (inclusive) to {@code end} (exclusive). */
    protected PickListener(int first, int end) {
        this.first = first;
        this.end = end;
    }

    /** Closes the covered range at {@code end} (exclusive): the covered alternatives are instantiated. */
    public final void endAt(int end) {
        this.end = end;
    }

    /** Whether the committed alternative {@code index} is outside this listener's range. */
    final boolean lostTo(int index) {
        return index < first || index >= end;
    }

    /**
     * Acts on the loss of the covered alternatives; runs on the picker's worker ({@code w}), or on an
     * ordinary thread that picked ({@code w} null), and must not block.
     */
    protected abstract void fire(Worker w);
}
