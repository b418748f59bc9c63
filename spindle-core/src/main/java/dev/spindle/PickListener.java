package dev.spindle;

import dev.spindle.internal.run.Worker;

/**
 * Something to do when a {@link Pick} is decided in favour of an alternative outside
 * {@code [first, end)}: signal a nack ({@link Alt#withNack}), remove the timer of an {@link Alt#after}.
 *
 * <p>Listeners form a LIFO list through {@link #next}, pushed while the pick is claimed and read-only once
 * it is picked; whoever picks it fires them.
 */
abstract class PickListener {
    /** First alternative number this listener covers. Immutable. */
    final int first;
    /**
     * One past the last alternative number covered; {@link Integer#MAX_VALUE} while the covered
     * alternatives are still being instantiated. Written once by the choosing fiber (benign race: see
     * {@link Pick}'s overview, "Nack ranges"); read by the picker.
     */
    int end = Integer.MAX_VALUE;
    /** Next older listener of the same pick. Written before publication under the pick's claim. */
    PickListener next;

    PickListener(int first) {
        this.first = first;
    }

    /** Whether the committed alternative {@code index} is outside this listener's range. */
    final boolean lostTo(int index) {
        return index < first || index >= end;
    }

    /** Acts on the loss of the covered alternatives; runs on the picker's worker and must not block. */
    abstract void fire(Worker w);
}
