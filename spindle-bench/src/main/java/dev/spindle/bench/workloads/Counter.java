package dev.spindle.bench.workloads;

import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * A counted loop body for {@link CfLoop#repeatWhile}: runs {@code body(i)} for {@code i} in
 * {@code [0, count)}, then stops.
 *
 * <pre>{@code
 * CfLoop.repeatWhile(new Counter(3, i -> channel.give(i).thenApply(v -> true))).join();
 * }</pre>
 */
public final class Counter implements Supplier<CompletableFuture<Boolean>> {
    private final long count;
    private final LongFunction<CompletableFuture<Boolean>> body;
    /** The next index; plain: {@link CfLoop} runs one step at a time, each after the previous completed. */
    private long next;

    /** A loop of {@code count} steps. */
    public Counter(long count, LongFunction<CompletableFuture<Boolean>> body) {
        this.count = count;
        this.body = body;
    }

    @Override
    public CompletableFuture<Boolean> get() {
        if (next == count) {
            return CfLoop.STOP;
        }
        return body.apply(next++);
    }
}
