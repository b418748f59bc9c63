package dev.spindle;

import dev.spindle.internal.run.Worker;

/**
 * "Try the next alternative": what an {@link Alt} calls when it has registered its waiters without
 * committing. Instantiating a {@code choose} is a chain of these, ending at the {@link Pick}, whose
 * {@link #tryElse} means "every alternative is registered: block". An alternative that commits at once
 * never calls it, so later alternatives are not instantiated at all.
 *
 * <p>Each Else is called at most once per instantiation (the chain is linear), so implementations may
 * keep a mutable cursor.
 */
abstract class Else {
    /**
     * The commit state of the choose being instantiated. Set once at construction (the {@link Pick} itself
     * assigns {@code this}, which a constructor cannot pass to its super constructor); then read-only.
     */
    Pick pick;

    Else(Pick pick) {
        this.pick = pick;
    }

    /**
     * Continues instantiation with the alternative numbered {@code i} (numbers are global to the outermost
     * choose; nack ranges refer to them).
     */
    abstract void tryElse(Worker w, int i);
}
