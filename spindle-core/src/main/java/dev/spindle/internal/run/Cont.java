package dev.spindle.internal.run;

 

/**
 * A one-shot continuation: success ({@link #doCont}), failure ({@link #doHandle}) and, through
 * {@link Work}, a queueable work item that resumes with the {@link #value} stored in it.
 *
 * <p>Resuming a blocked continuation allocates nothing: the resumer writes {@code value} and pushes the
 * continuation itself onto a work stack (Hopac's {@code Cont}). A continuation is resumed at most once.
 *
 * @param <A> the type of value it expects
 */
public abstract class Cont<A> extends Work {
    /** The value to resume with when run as work. Written by the resumer before publishing the item. */
    public A value;
    /**
     * The fiber this continuation belongs to: the context for cancellation checks and for starting child
     * fibers. Set once at construction (a fiber points at itself).
     */
    public Strand<?> fiber;

    /** Creates a continuation of {@code fiber}. */
    protected Cont(Strand<?> fiber) {
        this.fiber = fiber;
    }

    /** Continues with {@code a}. */
    public abstract void doCont(Worker w, A a);

    @Override
    public Strand<?> owner() {
        return fiber;
    }

    @Override
    public void doWork(Worker w) {
        doCont(w, value);
    }
}
