package dev.spindle;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Strand;
import dev.spindle.internal.run.Worker;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;

/**
 * One run of a direct body: the "current direct context" that {@link Direct#await} finds through a
 * thread-local while the body runs, and the blocker its fiber waits on meanwhile. Subclasses are the
 * backends ({@link DirectRun}: virtual thread; {@link DirectCont}: continuation).
 *
 * <p>Cancellation does not withdraw the fiber's continuation ({@link #removeWaiter} gives nothing back):
 * it reaches the body through the child fiber of its pending {@code await} (a child of the direct fiber,
 * so the cancellation tree cancels it) or through the check at its next {@code await}. The continuation
 * is resumed only when the body has ended, so its {@code finally} blocks always run first.
 *
 * @param <A> the body's value type
 */
abstract class DirectContext<A> implements Blocker {
    private static final ThreadLocal<DirectContext<?>> CURRENT = new ThreadLocal<>();

    final Callable<? extends A> body;
    final Cont<A> k;
    final Engine engine;
    final FiberCore<?> self;

    DirectContext(Callable<? extends A> body, Cont<A> k, Engine engine) {
        this.body = body;
        this.k = k;
        this.engine = engine;
        this.self = (FiberCore<?>) k.fiber;
    }

    /** The direct body the calling thread runs, or null outside any. */
    static DirectContext<?> current() {
        return CURRENT.get();
    }

    /** Makes this the calling thread's context; returns the previous one, to give to {@link #exit}. */
    final DirectContext<?> enter() {
        DirectContext<?> previous = CURRENT.get();
        CURRENT.set(this);
        return previous;
    }

    static void exit(DirectContext<?> previous) {
        if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
    }

    /** {@link Direct#await} inside this body. */
    abstract <B> B await(Job<B> job);

    /** Throws at an await of a cancelled direct fiber. */
    final void checkCancel() {
        if (self.cancelPending()) {
            throw new CancellationException("the direct fiber was cancelled");
        }
    }

    /** A new child fiber of the direct fiber that runs {@code job}, not yet started or linked. */
    final <B> FiberCore<B> newChild(Job<B> job) {
        return new FiberCore<>(job, engine, self, false);
    }

    /** What {@code await} gives for the finished {@code child}: its value, or the exception to throw. */
    final <B> B outcomeOf(FiberCore<B> child) {
        return switch (child.outcomeNow()) {
            case Outcome.Success<B> s -> s.value();
            case Outcome.Failure<B> f -> throw Jobs.rethrowable(f.error());
            case Outcome.Cancelled<B> c -> throw new CancellationException(self.isCancelRequested()
                    ? "the direct fiber was cancelled"
                    : "the awaited job was cancelled");
        };
    }

    /**
     * Resumes the direct fiber with the body's result: cancelled if cancellation is pending, whatever the
     * body ended with. {@code w} is the caller's worker, or null on a foreign thread.
     */
    final void deliver(Worker w, A value, Throwable error) {
        if (w == null) {
            if (self.cancelPending()) {
                engine.submit(new Jobs.FailWork(k, Jobs.CancelSignal.INSTANCE));
            } else if (error != null) {
                engine.submit(new Jobs.FailWork(k, error));
            } else {
                k.value = value;
                engine.submit(k);
            }
        } else if (self.cancelPending()) {
            Jobs.fail(w, k, Jobs.CancelSignal.INSTANCE);
        } else if (error != null) {
            Jobs.fail(w, k, error);
        } else {
            Jobs.succeed(w, k, value);
        }
    }

    /** The direct fiber waits for the child fiber of its pending await: reports list it. */
    @Override
    public final boolean waitsForChildren() {
        return true;
    }

    @Override
    public final Cont<?> removeWaiter(Strand<?> fiber) {
        return null; // the body ends by itself; see the class comment
    }
}
