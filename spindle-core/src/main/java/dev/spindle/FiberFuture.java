package dev.spindle;

import dev.spindle.internal.run.Worker;
import java.util.concurrent.CompletableFuture;

/**
 * A future of a fiber's outcome ({@link Scheduler#submit}, {@link Fiber#toCompletableFuture()}): completes
 * with the fiber's value or failure, or is cancelled when the fiber was; cancelling it requests cancellation
 * of the fiber and completes it at once, before the fiber's finalizers have run.
 *
 * @param <A> the fiber's value type
 */
final class FiberFuture<A> extends CompletableFuture<A> {
    private final FiberImpl<A> fiber;

    private FiberFuture(FiberImpl<A> fiber) {
        this.fiber = fiber;
    }

    /** A future of {@code fiber}'s outcome: a joiner completes it when the fiber ends, or it completes now. */
    static <A> FiberFuture<A> of(FiberImpl<A> fiber) {
        FiberFuture<A> future = new FiberFuture<>(fiber);
        if (!fiber.tryAddJoiner(new Completer<>(future))) {
            future.completeFrom(fiber);
        }
        return future;
    }

    private void completeFrom(FiberImpl<A> f) {
        switch (f.outcomeNow()) {
            case Outcome.Success<A> s -> complete(s.value());
            case Outcome.Failure<A> x -> completeExceptionally(x.error());
            case Outcome.Cancelled<A> c -> super.cancel(false);
        }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        fiber.requestCancel(fiber.engine.currentWorker());
        return super.cancel(mayInterruptIfRunning);
    }

    /** Completes the future when its fiber ends. */
    private static final class Completer<A> extends Callback<A> {
        private final FiberFuture<A> future;

        Completer(FiberFuture<A> future) {
            this.future = future;
        }

        @Override
        void onDone(Worker w) {
            future.completeFrom(future.fiber);
        }
    }
}
