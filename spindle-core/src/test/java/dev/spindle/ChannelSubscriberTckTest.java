package dev.spindle;

import java.util.concurrent.Flow;
import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowSubscriberBlackboxVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;

/**
 * The Reactive Streams TCK's subscriber rules (black-box, Flow flavour) on {@link Flows#subscriber}: each
 * subscriber feeds a channel that a consumer fiber drains, so it keeps requesting. Every required rule
 * passes; the TCK skips the rules it cannot check from outside a black box.
 */
public class ChannelSubscriberTckTest extends FlowSubscriberBlackboxVerification<Integer> {
    private static final long TIMEOUT_MILLIS = 2_000L * Long.getLong("spindle.test.delayFactor", 1L);
    /** How long the TCK watches for signals that must not come: a shorter watch can only miss one. */
    private static final long NO_SIGNAL_MILLIS = 100;
    private Scheduler scheduler;

    public ChannelSubscriberTckTest() {
        super(new TestEnvironment(TIMEOUT_MILLIS, NO_SIGNAL_MILLIS));
    }

    @BeforeClass
    public void startScheduler() {
        scheduler = Scheduler.create(2);
    }

    @AfterClass
    public void closeScheduler() {
        scheduler.shutdownNow();
    }

    @Override
    public Flow.Subscriber<Integer> createFlowSubscriber() {
        Channel<Integer> channel = new Channel<>("tck");
        ChannelSubscriber<Integer> subscriber = Flows.subscriber(scheduler, channel);
        scheduler.submit(drain(channel, subscriber));
        return subscriber;
    }

    /** Takes every element until the stream ends. */
    private static Job<Void> drain(Channel<Integer> channel, ChannelSubscriber<Integer> subscriber) {
        return Alt.<Boolean>choose(channel.take().wrap(x -> true), subscriber.done().wrap(v -> false))
                .recover(e -> false)
                .flatMap(more -> more ? drain(channel, subscriber) : Job.unit());
    }

    @Override
    public Integer createElement(int element) {
        return element;
    }
}
