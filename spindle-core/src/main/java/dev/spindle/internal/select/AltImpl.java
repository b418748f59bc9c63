package dev.spindle.internal.select;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Worker;

/**
 * The implementation of an alternative defined outside the {@code dev.spindle} package (a sync primitive's
 * wait, a socket operation): how it is instantiated in a {@code choose} ({@link #tryAlt}) and how it runs as
 * a job on its own ({@link #doJob}). {@link dev.spindle.internal.run.Bridge#alt} wraps one into an
 * {@code Alt}, which users compose like any other; they cannot define alternatives themselves.
 *
 * <p>See this package's overview for the rules an implementation keeps and a worked example.
 *
 * @param <A> the type of the value the alternative produces
 */
public abstract class AltImpl<A> extends JobImpl<A> {
    /** For subclasses. */
    protected AltImpl() {
    }

    /**
     * Instantiates this alternative as number {@code i} of the choose whose instantiation {@code e}
     * continues. Exactly one of:
     * <ul>
     *   <li>commit: the alternative is ready; {@code e.pick.commitSelf(i)} (atomically with taking the
     *       resource, under the primitive's lock), then {@code e.pick.fireListeners(w)} and continue
     *       {@code k} with the value (outside the lock);
     *   <li>register: link {@code new Waiter<>(k, e.pick, i, null)} in the primitive's queue (the partner
     *       commits it with {@link Waiter#commit} before it hands the resource over), then call
     *       {@code e.tryElse(w, i + 1)};
     *   <li>found decided: {@code commitSelf} returned false (another alternative won meanwhile): call
     *       {@code e.pick.instantiated(w)} and take nothing.
     * </ul>
     * A failure (of user code, or of the operation) goes to {@code e.pick.fail(w, error)}. Never throws.
     */
    public abstract void tryAlt(Worker w, int i, Cont<A> k, Else e);

    /**
     * Runs this alternative as a job: by default a choose of one (a {@link Pick} and {@link #tryAlt}).
     * Override it with an allocation-free path (queue {@code k} itself as a plain entry) for the common,
     * non-choose use.
     */
    @Override
    public void doJob(Worker w, Cont<A> k) {
        Pick pk = Pick.begin(w, k, this);
        if (pk != null) {
            tryAlt(w, 0, k, pk);
        }
    }
}
