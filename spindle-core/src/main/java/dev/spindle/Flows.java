package dev.spindle;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Flow;

/**
 * Adapters between Spindle and {@link java.util.concurrent.Flow} (Reactive Streams), both ways, with
 * back-pressure: a {@link Flow.Publisher} that takes elements from a Spindle source only on demand, and a
 * {@link Flow.Subscriber} that hands the elements it receives to a {@link Channel}, asking for the next one
 * only when a taker has taken the last.
 *
 * <pre>{@code
 * Channel<String> lines = new Channel<>("lines");
 * Flow.Publisher<String> out = Flows.publisher(scheduler, lines.take().map(Optional::of)); // never completes
 *
 * Channel<Event> events = new Channel<>("events");
 * ChannelSubscriber<Event> in = Flows.subscriber(scheduler, events);
 * somePublisher.subscribe(in);
 * Job<Event> next = Alt.choose(events.take(), in.done().wrap(v -> null));   // the next event, or null at the end
 * }</pre>
 *
 * <p>Both are checked against the Reactive Streams TCK (its Flow flavour).
 */
public final class Flows {
    private Flows() {
    }

    /**
     * {@return a publisher whose every subscriber gets a fiber of its own on {@code scheduler} that runs
     * {@code next} once for each element, and only when the subscriber has outstanding demand: a present
     * value is the next element ({@code onNext}), an empty one ends the stream ({@code onComplete}), a
     * failure fails it ({@code onError})} {@code Subscription.cancel()} cancels that fiber: a {@code next}
     * waiting then (a channel's take, say) is withdrawn and consumes nothing, and a value {@code next} had
     * already produced is still delivered. Subscribers of one publisher run {@code next} independently: over
     * one channel they share out its values. The signals to one subscriber come from its fiber, one at a
     * time; a subscriber that throws is treated as cancelled and its exception goes to the scheduler's
     * uncaught handler.
     *
     * @param <T> the type of the elements
     * @param scheduler where the subscribers' fibers run
     * @param next gives the next element, or empty at the end of the stream
     * @throws NullPointerException if an argument is null
     */
    public static <T> Flow.Publisher<T> publisher(Scheduler scheduler, Job<Optional<T>> next) {
        return new FlowPublisher<>(Objects.requireNonNull(scheduler, "scheduler"), Objects.requireNonNull(next, "next"));
    }

    /**
     * {@return a subscriber that gives every element it receives to {@code channel} ({@link Channel#give},
     * from a fiber of {@code scheduler}) and requests the next one only once a taker has taken it: one
     * element in flight at a time} Its {@link ChannelSubscriber#done()} becomes ready when the stream has
     * completed and every element was taken, or fails with the stream's error.
     *
     * @param <T> the type of the elements
     * @param scheduler where the fiber that gives the elements runs
     * @param channel the channel the elements are given to
     * @throws NullPointerException if an argument is null
     */
    public static <T> ChannelSubscriber<T> subscriber(Scheduler scheduler, Channel<T> channel) {
        return new ChannelSubscriber<>(Objects.requireNonNull(scheduler, "scheduler"),
                Objects.requireNonNull(channel, "channel"));
    }
}
