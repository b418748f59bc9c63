package dev.spindle.internal.run;

import java.lang.invoke.VarHandle;

/**
 * A one-shot continuation: success ({@link #doCont}), failure ({@link #doHandle}) and, through
 * {@link Work}, a queueable work item that resumes with the {@link #resumeValue} stored in it.
 *
 * <p>Resuming a blocked continuation allocates nothing: the resumer writes {@code value} and pushes the
 * continuation itself onto a work stack (Hopac's {@code Cont}). A continuation is resumed at most once.
 *
 * @param <A> the type of value it expects
 */
public abstract class Cont<A> extends Work {
    /** The value to resume with when run as work. Written by the resumer before publishing the item. */
    private A value;
    /**
     * The fiber this continuation belongs to: the context for cancellation checks and for starting child
     * fibers. Final: set at construction (a fiber points at itself); null for a waiter that is no fiber.
     */
    private final FiberBase<?> fiber;

    /** Creates a continuation of {@code fiber}. */
    protected Cont(FiberBase<?> fiber) {
        this.fiber = fiber;
    }

    /** Creates a fiber: the continuation that is its own fiber context ({@link FiberBase}). */
    Cont() {
        this.fiber = (FiberBase<?>) this;
    }

    /** The value this continuation resumes with when run as work (what the last resumer stored). */
    public final A resumeValue() {
        return value;
    }

    /**
     * Stores the value to resume with. The resumer calls it before it publishes this continuation (pushes
     * it or hands it over), which orders the write for the thread that runs it.
     */
    public final void setResumeValue(A a) {
        value = a;
    }

    /** Continues with {@code a}. */
    public abstract void doCont(Worker w, A a);

    @Override
    public final FiberBase<?> fiber() {
        return fiber;
    }

    @Override
    public void doWork(Worker w) {
        doCont(w, value);
    }

    /** {@link #value}, for the volatile accesses of {@link FiberBase}'s waiting slot. */
    static final VarHandle VALUE =
            SpinLock.handle(java.lang.invoke.MethodHandles.lookup(), Cont.class, "value", Object.class);
}
