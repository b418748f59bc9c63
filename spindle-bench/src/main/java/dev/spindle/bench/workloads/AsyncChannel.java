package dev.spindle.bench.workloads;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/**
 * An unbuffered (rendezvous) channel for the {@code cf} implementations: {@link #give} completes when a
 * taker has the value, {@link #take} completes with a giver's value; waiting givers and takers are served
 * first come, first served. The JDK has no asynchronous {@code SynchronousQueue}; this is the plain one a
 * {@code CompletableFuture} user would write: a lock around two queues, futures completed outside it.
 *
 * <pre>{@code
 * AsyncChannel<String> ch = new AsyncChannel<>();
 * ch.take().thenAccept(System.out::println);
 * ch.give("hello"); // prints hello
 * }</pre>
 *
 * @implNote Completing a future runs its dependents on the completing thread; callers loop with
 *     {@link CfLoop}, whose steps continue asynchronously, so chains of hand-offs do not nest.
 * @param <A> the type of the values
 */
public final class AsyncChannel<A> {
    private static final CompletableFuture<Void> GIVEN = CompletableFuture.completedFuture(null);

    /** Takers waiting for a giver, oldest first. Guarded by this. */
    private final ArrayDeque<CompletableFuture<A>> takers = new ArrayDeque<>();
    /** Givers waiting for a taker, oldest first. Guarded by this. */
    private final ArrayDeque<Offer<A>> givers = new ArrayDeque<>();

    /** A waiting giver: its value and the future to complete when a taker has it. */
    private record Offer<A>(A value, CompletableFuture<Void> taken) {
    }

    /** Offers {@code value}; the future completes when a taker has received it. */
    public CompletableFuture<Void> give(A value) {
        CompletableFuture<A> taker;
        synchronized (this) {
            taker = takers.poll();
            if (taker == null) {
                Offer<A> offer = new Offer<>(value, new CompletableFuture<>());
                givers.add(offer);
                return offer.taken();
            }
        }
        taker.complete(value);
        return GIVEN;
    }

    /** Takes a value; the future completes with it when a giver provides one. */
    public CompletableFuture<A> take() {
        Offer<A> offer;
        synchronized (this) {
            offer = givers.poll();
            if (offer == null) {
                CompletableFuture<A> taker = new CompletableFuture<>();
                takers.add(taker);
                return taker;
            }
        }
        offer.taken().complete(null);
        return CompletableFuture.completedFuture(offer.value());
    }
}
