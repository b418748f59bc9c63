package dev.spindle;

import dev.spindle.sync.Event;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link Flow.Subscriber} that feeds a {@link Channel} ({@link Flows#subscriber}): a feeder fiber gives
 * each element to the channel and requests the next only once a taker has taken it, so a slow consumer
 * slows the publisher down. {@link #done()} tells consumers that the stream has ended; {@link #cancel()}
 * (or cancelling the feeder fiber, as {@link Scheduler#shutdownNow()} does) cancels the subscription.
 *
 * <pre>
 * Implementation overview
 * =======================
 * The signals arrive on the publisher's threads, one at a time; each is queued in signals and wakes the
 * feeder (an AUTO event, which keeps a signal sent while the feeder is not waiting). The Subscription is
 * called by the feeder (its requests, and a cancel when the feeder is cancelled) and by cancel(), on the
 * caller's thread so that upstream is cancelled when cancel() returns: every call holds the subscriber's
 * monitor, which makes them serial (rule 2.7). A second onSubscribe is cancelled at once (rule 2.5).
 * </pre>
 *
 * @param <T> the type of the elements
 */
public final class ChannelSubscriber<T> implements Flow.Subscriber<T> {
    private static final Object COMPLETE = new Object();

    private final Scheduler scheduler;
    private final Channel<T> channel;
    private final ConcurrentLinkedQueue<Object> signals = new ConcurrentLinkedQueue<>();
    private final Event arrived = new Event(Event.Mode.AUTO, false, "signals of a Flows.subscriber");
    private final IVar<Void> done = new IVar<>("end of a Flows.subscriber stream");
    private final AtomicBoolean subscribed = new AtomicBoolean();
    private volatile boolean cancelled;
    /** The subscription, once subscribed. */
    private volatile Flow.Subscription subscription;
    /** The feeder, once subscribed; cancel() writes cancelled then reads this, onSubscribe the reverse. */
    private volatile FiberImpl<?> feeder;

    ChannelSubscriber(Scheduler scheduler, Channel<T> channel) {
        this.scheduler = scheduler;
        this.channel = channel;
    }

    /**
     * {@return an alternative that becomes ready once the stream has completed and every element was taken
     * from the channel, or fails with the stream's error} It never becomes ready after {@link #cancel()}.
     */
    public Alt<Void> done() {
        return done.read();
    }

    /**
     * Cancels the subscription, upstream before this returns, and stops the feeder fiber: an element it was
     * giving, or one the publisher sends after all, is not given.
     */
    public void cancel() {
        cancelled = true;
        FiberImpl<?> f = feeder;
        if (f != null) {
            f.requestCancel(f.engine.currentWorker());
        }
        Flow.Subscription s = subscription;
        if (s != null) {
            call(s::cancel);
        }
    }

    /** Calls the subscription under this subscriber's monitor: calls from the feeder and cancel() are serial. */
    private synchronized void call(Runnable subscriptionCall) {
        subscriptionCall.run();
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        Objects.requireNonNull(subscription, "subscription");
        if (!subscribed.compareAndSet(false, true)) {
            subscription.cancel(); // rule 2.5: one subscription at a time
            return;
        }
        this.subscription = subscription;
        Job<Void> feed = requestOne(subscription).then(feed(subscription))
                .onCancel(Job.run(() -> call(subscription::cancel)));
        FiberImpl<Void> f = scheduler.startRoot(feed, true);
        feeder = f;
        if (cancelled) {
            f.requestCancel(f.engine.currentWorker());
        }
    }

    @SuppressWarnings("unchecked")
    private Job<Void> feed(Flow.Subscription subscription) {
        return Job.defer(() -> {
            Object s = signals.poll();
            if (s == null) {
                return arrived.await().then(feed(subscription));
            }
            if (s == COMPLETE) {
                return done.fill(null);
            }
            if (s instanceof Failed f) {
                return done.fillFailure(f.error);
            }
            return channel.give((T) s).then(requestOne(subscription)).then(feed(subscription));
        });
    }

    private Job<Void> requestOne(Flow.Subscription s) {
        return Job.run(() -> call(() -> s.request(1)));
    }

    @Override
    public void onNext(T item) {
        queue(Objects.requireNonNull(item, "item"));
    }

    @Override
    public void onError(Throwable throwable) {
        queue(new Failed(Objects.requireNonNull(throwable, "throwable")));
    }

    @Override
    public void onComplete() {
        queue(COMPLETE);
    }

    private void queue(Object signal) {
        signals.add(signal);
        arrived.signal();
    }

    @Override
    public String toString() {
        return "Flows.subscriber[" + channel + "]";
    }

    /** An onError signal in the queue. */
    private record Failed(Throwable error) {
    }
}
