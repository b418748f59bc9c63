package dev.spindle.bench.workloads;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * An asynchronous loop on {@code CompletableFuture}: a "fiber" of the {@code cf} implementations. Each
 * iteration starts when the previous one's future completes, on a pool thread ({@code *Async}), so the
 * stack stays flat however long the loop runs and however the futures complete.
 *
 * <pre>{@code
 * int[] left = {3};
 * CfLoop.repeatWhile(() -> CompletableFuture.completedFuture(--left[0] > 0)).join();
 * }</pre>
 */
public final class CfLoop {
    private CfLoop() {
    }

    /** A completed future of {@code true}. */
    public static final CompletableFuture<Boolean> CONTINUE = CompletableFuture.completedFuture(true);
    /** A completed future of {@code false}. */
    public static final CompletableFuture<Boolean> STOP = CompletableFuture.completedFuture(false);

    /**
     * Runs {@code step} again and again while the future it returns completes with {@code true}; the result
     * completes when one completes with {@code false}, or exceptionally when a step fails.
     * {@code step} runs on one iteration at a time, so it may keep plain state.
     */
    public static CompletableFuture<Void> repeatWhile(Supplier<CompletableFuture<Boolean>> step) {
        Loop loop = new Loop(step);
        loop.next();
        return loop.done;
    }

    /** One running loop. */
    private static final class Loop {
        private final Supplier<CompletableFuture<Boolean>> step;
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        Loop(Supplier<CompletableFuture<Boolean>> step) {
            this.step = step;
        }

        void next() {
            CompletableFuture<Boolean> f;
            try {
                f = step.get();
            } catch (Throwable e) {
                done.completeExceptionally(e);
                return;
            }
            f.whenCompleteAsync((more, e) -> {
                if (e != null) {
                    done.completeExceptionally(e);
                } else if (more) {
                    next();
                } else {
                    done.complete(null);
                }
            });
        }
    }
}
