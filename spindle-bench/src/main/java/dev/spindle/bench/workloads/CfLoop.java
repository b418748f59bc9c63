package dev.spindle.bench.workloads;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * An asynchronous loop on {@code CompletableFuture}: a "fiber" of the {@code cf} implementations. A step
 * whose future is already complete when it returns is followed by the next one at once, in a plain loop;
 * a step still pending continues on a pool thread when its future completes ({@code whenCompleteAsync}),
 * so the stack stays flat however long the loop runs and whoever completes the future.
 *
 * <pre>{@code
 * int[] left = {3};
 * CfLoop.repeatWhile(() -> CompletableFuture.completedFuture(--left[0] > 0)).join();
 * }</pre>
 *
 * @implNote Continuing synchronously on the completer's stack instead of hopping would be cheaper still,
 *     but unsafe in general: in threadring each completion would run the next member's step, which
 *     completes the next member's take, and so on round the ring on one stack.
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
        loop.run();
        return loop.done;
    }

    /** One running loop. */
    private static final class Loop {
        private final Supplier<CompletableFuture<Boolean>> step;
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        Loop(Supplier<CompletableFuture<Boolean>> step) {
            this.step = step;
        }

        /** Runs steps while they complete at once; parks the loop on the first pending one. */
        void run() {
            try {
                while (true) {
                    CompletableFuture<Boolean> f = step.get();
                    if (!f.isDone()) {
                        f.whenCompleteAsync(this::resume);
                        return;
                    }
                    if (!f.join()) {
                        done.complete(null);
                        return;
                    }
                }
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        }

        private void resume(Boolean more, Throwable e) {
            if (e != null) {
                done.completeExceptionally(e);
            } else if (more) {
                run();
            } else {
                done.complete(null);
            }
        }
    }
}
