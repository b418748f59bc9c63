package dev.spindle;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Strand;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;

/**
 * One run of a direct body on its virtual thread: the "current direct context" that {@link Direct#await}
 * finds through a thread-local, and the blocker its fiber waits on meanwhile.
 *
 * <p>Cancellation does not withdraw the fiber's continuation ({@link #removeWaiter} gives nothing back):
 * it reaches the body through the child fiber of its pending {@code await} (a child of the direct fiber,
 * so the cancellation tree cancels it) or through the check at its next {@code await}. The continuation
 * is resumed only when the body has ended, so its {@code finally} blocks always run first.
 */
final class DirectRun<A> implements Runnable, Blocker {
    private static final ThreadLocal<DirectRun<?>> CURRENT = new ThreadLocal<>();

    private final Callable<? extends A> body;
    private final Cont<A> k;
    private final Engine engine;
    private final FiberCore<?> self;
    /** The body's virtual thread; set when it starts. */
    private volatile Thread thread;

    DirectRun(Callable<? extends A> body, Cont<A> k, Engine engine, FiberCore<?> self) {
        this.body = body;
        this.k = k;
        this.engine = engine;
        this.self = self;
    }

    /** The direct body the calling thread runs, or null outside any. */
    static DirectRun<?> current() {
        return CURRENT.get();
    }

    void start() {
        thread = Thread.ofVirtual().name("spindle-direct").unstarted(this);
        thread.start();
    }

    @Override
    public void run() {
        A value = null;
        Throwable error = null;
        CURRENT.set(this);
        try {
            value = body.call();
        } catch (Throwable e) {
            error = e;
        } finally {
            CURRENT.remove();
        }
        if (self.cancelPending()) {
            engine.submit(new Jobs.FailWork(k, Jobs.CancelSignal.INSTANCE));
        } else if (error != null) {
            engine.submit(new Jobs.FailWork(k, error));
        } else {
            k.value = value;
            engine.submit(k);
        }
    }

    /** {@link Direct#await} on this body's thread. */
    <B> B await(Job<B> job) {
        if (Thread.currentThread() != thread) {
            throw new IllegalStateException("Direct.await called on " + Thread.currentThread()
                    + ", not on the thread of the direct body that owns the context");
        }
        if (self.cancelPending()) {
            throw new CancellationException("the direct fiber was cancelled");
        }
        FiberCore<B> child = new FiberCore<>(job, engine, self, false);
        DirectWake<B> wake = new DirectWake<>();
        child.tryAddJoiner(wake); // before the child can run: always succeeds
        engine.externalFiberStarted();
        self.addChild(null, child); // cancels the child at once if the direct fiber is being cancelled
        engine.pushGlobal(child);
        wake.await();
        return switch (child.outcomeNow()) {
            case Outcome.Success<B> s -> s.value();
            case Outcome.Failure<B> f -> throw Jobs.rethrowable(f.error());
            case Outcome.Cancelled<B> c -> throw new CancellationException(self.isCancelRequested()
                    ? "the direct fiber was cancelled"
                    : "the awaited job was cancelled");
        };
    }

    @Override
    public Cont<?> removeWaiter(Strand<?> fiber) {
        return null; // the body ends by itself; see the class comment
    }

    @Override
    public String describe() {
        return "direct body on " + thread;
    }
}
