package dev.spindle;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowPublisherVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;

/**
 * The Reactive Streams TCK (Flow flavour, a TestNG suite run by the JUnit Platform's TestNG engine) on
 * {@link Flows#publisher}. Every required rule passes. Skipped, with the reason:
 * <ul>
 *   <li>the rules about a publisher that fails before any demand (1.4 "must signal onError when fails",
 *       1.9 "rejection must trigger onError after onSubscribe"): {@link #createFailedFlowPublisher()} gives
 *       none, since by design the publisher runs its source only when there is demand, so a failing source
 *       fails a stream only once something was requested (the failure path is checked in FlowsTest);
 *   <li>the optional rules whose premise the publisher does not have (e.g. multicast to several subscribers
 *       in the same order: each subscriber gets a fiber of its own running the source).
 * </ul>
 */
public class FlowPublisherTckTest extends FlowPublisherVerification<Long> {
    private static final long TIMEOUT_MILLIS = 2_000L * Long.getLong("spindle.test.delayFactor", 1L);
    /** How long the TCK watches for signals that must not come: a shorter watch can only miss one. */
    private static final long NO_SIGNAL_MILLIS = 100;
    private Scheduler scheduler;

    public FlowPublisherTckTest() {
        super(new TestEnvironment(TIMEOUT_MILLIS, NO_SIGNAL_MILLIS), TIMEOUT_MILLIS);
    }

    @BeforeClass
    public void startScheduler() {
        scheduler = Scheduler.create(2);
    }

    @AfterClass
    public void closeScheduler() {
        scheduler.shutdownNow();
    }

    /**
     * {@code elements} numbers, 0 upwards, to each subscriber: the count is kept per pump fiber, which the
     * source finds through {@link Job#self()}.
     */
    @Override
    public Flow.Publisher<Long> createFlowPublisher(long elements) {
        Map<Fiber<?>, AtomicLong> counts = new ConcurrentHashMap<>();
        Job<Optional<Long>> next = Job.self().map(me -> {
            AtomicLong count = counts.computeIfAbsent(me, f -> new AtomicLong());
            long i = count.get();
            if (i >= elements) {
                counts.remove(me);
                return Optional.<Long>empty();
            }
            count.set(i + 1);
            return Optional.of(i);
        });
        return Flows.publisher(scheduler, next);
    }

    @Override
    public Flow.Publisher<Long> createFailedFlowPublisher() {
        return null; // see the class comment
    }
}
