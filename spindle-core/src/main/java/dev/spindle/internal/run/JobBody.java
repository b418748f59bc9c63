package dev.spindle.internal.run;

/**
 * The body of a job defined outside the {@code dev.spindle} package (the coordination primitives of
 * {@code dev.spindle.sync}): what {@code doJob} does. Wrap one with {@link Bridge#job(JobBody)}.
 *
 * @param <A> the type of the job's value
 */
public abstract class JobBody<A> {
    /** Runs the job on {@code w}, delivering its outcome to {@code k} exactly once. */
    public abstract void doJob(Worker w, Cont<A> k);
}
