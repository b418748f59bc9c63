package dev.spindle.internal.run;

/** A work item that delivers a failure to a continuation when run. */
public final class FailWork extends Work {
    private final Cont<?> k;
    private final Throwable error;

    /** A work item that fails {@code k} with {@code error}. */
    public FailWork(Cont<?> k, Throwable error) {
        this.k = k;
        this.error = error;
    }

    @Override
    public void doWork(Worker w) {
        k.doHandle(w, error);
    }

    @Override
    public FiberBase<?> fiber() {
        return k.fiber();
    }

    @Override
    public void doHandle(Worker w, Throwable e) {
        k.doHandle(w, e);
    }
}
