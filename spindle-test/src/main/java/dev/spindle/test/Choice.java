package dev.spindle.test;

import dev.spindle.internal.run.Work;
import java.util.List;

/** A scheduling strategy: which of the runnable items runs next. One instance per simulation run. */
interface Choice {
    /**
     * The index of the item to run among {@code items} (scheduling order, never empty); {@code infoOf}
     * gives the fiber an item continues, or null for internal work.
     */
    int pick(List<Work> items, FiberLookup infoOf);

    /** A fiber started (PCT gives it a priority). */
    void fiberStarted(FiberInfo fiber);

    /** Finds the {@link FiberInfo} of the fiber a work item continues. */
    @FunctionalInterface
    interface FiberLookup {
        /** The fiber {@code item} continues, or null. */
        FiberInfo of(Work item);
    }
}
