package dev.spindle.internal.select;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.StepTail;
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

    /**
     * Runs the job as the first part of the sequencing step {@code step} (null: on its own, into {@code k}):
     * returns its value if it succeeds at once, having called no continuation; otherwise returns
     * {@link StepTail#LATER}, having either handed the job {@code StepTail.contFor(step, k)} or failed
     * {@code k}. By default {@link #doJob} with the step's continuation; a job that often succeeds at once
     * overrides it (and then its {@code doJob} is this with no step), so the step allocates no continuation.
     * Never throws.
     */
    public <B> Object doJobNow(Worker w, StepTail<A, B> step, Cont<B> k) {
        doJob(w, StepTail.contFor(step, k));
        return StepTail.LATER;
    }
}
