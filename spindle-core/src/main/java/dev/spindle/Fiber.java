package dev.spindle;

/**
 * A running job: the handle that {@link Job#start()} gives.
 *
 * <pre>{@code
 * Job<Integer> sum = Job.of(() -> 20).start().flatMap(a ->
 *         Job.of(() -> 22).start().flatMap(b ->
 *         a.join().flatMap(x -> b.join().map(y -> x + y))));
 * }</pre>
 *
 * <p>A fiber started from another fiber is its <em>child</em>: cancelling the parent cancels it, and a
 * parent that finishes first stays linked until its last child finishes, so cancelling any ancestor still
 * reaches every live descendant. Cancelling a child never affects its parent.
 *
 * @param <A> the type of the fiber's value
 */
public final class Fiber<A> {
    final FiberCore<A> core;

    Fiber(FiberCore<A> core) {
        this.core = core;
    }

    /**
     * A job that waits for this fiber and gives its value, or fails with its failure. When the fiber was
     * cancelled the joiner fails with {@link java.util.concurrent.CancellationException} (which it may
     * recover from); the joiner itself is not cancelled.
     */
    public Job<A> join() {
        return new Control.Join<>(core, false);
    }

    /** A job that waits for this fiber and gives its {@link Outcome}; it never fails. */
    public Job<Outcome<A>> outcome() {
        return new Control.Join<>(core, true);
    }

    /**
     * A job that requests cancellation of this fiber (and its descendants) and then waits until it has
     * finished, its finalizers included. Cancelling a finished fiber does nothing.
     */
    public Job<Void> cancel() {
        return new Control.CancelFiber(core);
    }

    /** Whether this fiber has finished (in any way). */
    public boolean isDone() {
        return core.isDone();
    }

    /** Whether cancellation of this fiber has been requested. */
    public boolean isCancelRequested() {
        return core.isCancelRequested();
    }

    @Override
    public String toString() {
        return core.toString();
    }
}
