package dev.spindle.sync;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Worker;

/**
 * A fiber's continuation queued where plain entries of another engine already wait: it carries its own
 * engine so that waking it resumes it on the scheduler it belongs to. Only a primitive shared by two
 * schedulers at once ever makes one.
 *
 * @param <A> the continuation's value type
 */
final class ForeignWaiter<A> extends Waiter<A> {
    private final Cont<A> k;
    private final Engine engine;

    ForeignWaiter(Cont<A> k, Engine engine) {
        super(k.fiber);
        this.k = k;
        this.engine = engine;
    }

    @Override
    @SuppressWarnings("unchecked")
    void wake(Object v) {
        k.value = (A) v;
        engine.submit(k);
    }

    @Override
    public void doCont(Worker w, A a) {
        Waits.succeed(w, k, a);
    }

    /** Withdrawn by cancellation: the fiber's continuation fails with the cancel signal. */
    @Override
    public void doHandle(Worker w, Throwable e) {
        Waits.fail(w, k, e);
    }
}
