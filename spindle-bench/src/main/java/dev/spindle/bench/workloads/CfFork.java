package dev.spindle.bench.workloads;

import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;
import java.util.function.Supplier;

/**
 * Fork/join with {@code CompletableFuture} on the common pool, asynchronous throughout: children are
 * {@code supplyAsync} tasks, and the parent combines them with {@code allOf} instead of blocking.
 *
 * <pre>{@code
 * long three = CfFork.inPool(() -> CfFork.sum(3, i -> 1L)).join(); // 3
 * }</pre>
 */
public final class CfFork {
    private CfFork() {
    }

    /** Sums the values of {@code n} pool tasks computing {@code child.applyAsLong(i)}. */
    public static CompletableFuture<Long> sum(int n, IntToLongFunction child) {
        CompletableFuture<Long>[] children = newArray(n);
        for (int i = 0; i < n; i++) {
            int index = i;
            children[i] = CompletableFuture.supplyAsync(() -> child.applyAsLong(index));
        }
        return sumOf(children);
    }

    /**
     * Sums the values of {@code n} pool tasks, each of which starts an asynchronous computation
     * {@code child.apply(i)} (which may fork further) and completes with it.
     */
    public static CompletableFuture<Long> sumComposed(int n, IntFunction<CompletableFuture<Long>> child) {
        CompletableFuture<Long>[] children = newArray(n);
        for (int i = 0; i < n; i++) {
            int index = i;
            children[i] = CompletableFuture.supplyAsync(() -> child.apply(index)).thenCompose(f -> f);
        }
        return sumOf(children);
    }

    /** Completes with the sum of the values of {@code futures} once all have completed. */
    public static CompletableFuture<Long> sumOf(CompletableFuture<Long>[] futures) {
        return CompletableFuture.allOf(futures).thenApply(ignored -> {
            long acc = 0;
            for (CompletableFuture<Long> f : futures) {
                acc += f.join(); // all are complete: join does not block
            }
            return acc;
        });
    }

    /** Starts {@code body} as a pool task (so it forks from inside the pool) and completes with its result. */
    public static <T> CompletableFuture<T> inPool(Supplier<CompletableFuture<T>> body) {
        return CompletableFuture.supplyAsync(body).thenCompose(f -> f);
    }

    /** A new array of {@code n} futures. */
    @SuppressWarnings("unchecked")
    public static <T> CompletableFuture<T>[] newArray(int n) {
        return (CompletableFuture<T>[]) new CompletableFuture<?>[n];
    }
}
