package dev.spindle.internal.select;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Worker;

/**
 * The implementation of a job defined outside the {@code dev.spindle} package (by Spindle's own packages:
 * {@code dev.spindle.sync}, the network): what its {@code doJob} does. {@link dev.spindle.internal.run.Bridge#job}
 * wraps one into a {@code Job}; users cannot define jobs.
 *
 * @param <A> the type of the job's value
 */
public abstract class JobImpl<A> {
    /** For subclasses. */
    protected JobImpl() {
    }

    /**
     * Runs the job on {@code w}, delivering its outcome to {@code k} exactly once (usually through
     * {@link dev.spindle.internal.run.Trampoline}). Never throws.
     */
    public abstract void doJob(Worker w, Cont<A> k);
}
