package dev.spindle;

import java.util.concurrent.CompletableFuture;

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
 * <p>The handle is the runtime's fiber record itself (the interface is sealed: only Spindle implements it),
 * so starting a fiber allocates no separate handle.
 *
 * @param <A> the type of the fiber's value
 */
public sealed interface Fiber<A> permits FiberImpl {
    /**
     * {@return a job that waits for this fiber and gives its value, or fails with its failure} When the fiber
     * was cancelled the joiner fails with {@link java.util.concurrent.CancellationException} (which it may
     * recover from); the joiner itself is not cancelled. A joiner that is being cancelled itself (a cancelled
     * parent joining the children its cancellation ended) sees its own cancellation instead.
     */
    Job<A> join();

    /** {@return a job that waits for this fiber and gives its {@link Outcome}; it never fails} */
    Job<Outcome<A>> outcome();

    /**
     * {@return a job that requests cancellation of this fiber (and its descendants) and then waits until it
     * has finished, its finalizers included} Cancelling a finished fiber does nothing.
     */
    Job<Void> cancel();

    /**
     * {@return a future of this fiber's outcome: completed with its value or failure, or cancelled when the
     * fiber was cancelled} Cancelling the future ({@code cancel(true)} or {@code cancel(false)}) requests
     * cancellation of the fiber and completes the future at once, before the fiber's finalizers have run (as
     * {@link Scheduler#submit}'s future does; use {@link #cancel()} inside jobs to wait for them). Each call
     * gives a new future; dependent stages ({@code thenApply}...) are plain {@link CompletableFuture}s.
     */
    CompletableFuture<A> toCompletableFuture();

    /** {@return whether this fiber has finished (in any way)} */
    boolean isDone();

    /** {@return whether cancellation of this fiber has been requested} */
    boolean isCancelRequested();
}
