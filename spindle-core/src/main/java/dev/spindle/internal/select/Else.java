package dev.spindle.internal.select;

import dev.spindle.internal.run.Worker;

/**
 * "Try the next alternative": what an alternative calls when it has registered its waiters without
 * committing. Instantiating a {@code choose} is a chain of these, ending at the {@link Pick}, whose
 * {@link #tryElse} means "every alternative is registered: block". An alternative that commits at once
 * never calls it, so later alternatives are not instantiated at all.
 *
 * <p>Each Else is called at most once per instantiation (the chain is linear), so implementations may
 * keep a mutable cursor.
 */
public abstract class Else {
    /** The commit state of the choose being instantiated. Immutable. */
    public final Pick pick;

    /**
     * An Else of the choose whose commit state is {@code pick}; only the {@link Pick} itself passes null
     * (it is its own pick, and a constructor cannot pass {@code this} to its super constructor).
     */
    protected Else(Pick pick) {
        this.pick = pick != null ? pick : (Pick) this;
    }

    /**
     * Continues instantiation with the alternative numbered {@code i} (numbers are global to the outermost
     * choose; nack ranges refer to them).
     */
    public abstract void tryElse(Worker w, int i);
}
