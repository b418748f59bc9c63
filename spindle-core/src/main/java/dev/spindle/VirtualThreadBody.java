package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Worker;
import java.util.concurrent.Callable;

/**
 * The virtual-thread backend: the body runs on its own virtual thread; {@code await} queues the awaited
 * job to run as part of the direct fiber on the scheduler's workers and parks the thread until it ends.
 */
final class VirtualThreadBody<A> extends DirectBody<A> implements Runnable {
    private final Callable<? extends A> body;
    private final Engine engine;
    /** The body's virtual thread; set when it starts. */
    private volatile Thread thread;

    VirtualThreadBody(Callable<? extends A> body, Cont<A> k, Engine engine) {
        super(k);
        this.body = body;
        this.engine = engine;
    }

    @Override
    Engine engine() {
        return engine;
    }

    void start() {
        thread = Thread.ofVirtual().name("spindle-direct").unstarted(this);
        thread.start();
    }

    @Override
    public void run() {
        A value = null;
        Throwable error = null;
        DirectBody<?> previous = enter();
        try {
            value = body.call();
        } catch (Throwable e) {
            error = e;
        } finally {
            exit(previous);
        }
        deliver(null, value, error);
    }

    @Override
    <B> B await(Job<B> job) {
        checkCancel();
        ThreadAwait<B> c = new ThreadAwait<>(fiber());
        submitAwaited(job, c);
        c.park();
        return c.outcome();
    }

    /** Never called: awaits complete a {@link DirectBody.ThreadAwait}, and this context is never queued. */
    @Override
    public void doCont(Worker w, Object value) {
        throw new IllegalStateException("a virtual-thread direct body is not a continuation");
    }

    /** Never called; see {@link #doCont}. */
    @Override
    public void doHandle(Worker w, Throwable e) {
        throw new IllegalStateException("a virtual-thread direct body is not a continuation", e);
    }

    @Override
    public String describe() {
        return "direct body on " + thread;
    }
}
