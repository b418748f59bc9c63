package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Flows}: demand honoured both ways, cancellation withdrawing a pending take (nothing taken is lost),
 * completion and failure, on every scheduler kind. The TCK checks the rules (FlowPublisherTckTest,
 * ChannelSubscriberTckTest).
 */
class FlowsTest {

    /** Records the signals it gets; requests what the test asks. */
    private static class Recorder<T> implements Flow.Subscriber<T> {
        final List<T> items = Collections.synchronizedList(new ArrayList<>());
        final AtomicReference<Throwable> error = new AtomicReference<>();
        volatile boolean complete;
        volatile Flow.Subscription subscription;
        private final long initialRequest;

        Recorder(long initialRequest) {
            this.initialRequest = initialRequest;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(initialRequest);
        }

        @Override
        public void onNext(T item) {
            items.add(item);
        }

        @Override
        public void onError(Throwable t) {
            error.set(t);
        }

        @Override
        public void onComplete() {
            complete = true;
        }

        boolean ended() {
            return complete || error.get() != null;
        }
    }

    /** A source of the numbers 0 to n-1, then the end; counts what it produced. */
    private static Job<Optional<Integer>> upTo(int n, AtomicInteger produced) {
        return Job.of(() -> {
            int i = produced.get();
            if (i >= n) {
                return Optional.empty();
            }
            produced.incrementAndGet();
            return Optional.of(i);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void thePublisherTakesOnlyWhatWasRequested(SchedulerKind kind) {
        kind.use(s -> {
            AtomicInteger produced = new AtomicInteger();
            Recorder<Integer> r = new Recorder<>(2);
            Flows.publisher(s, upTo(10, produced)).subscribe(r);
            kind.awaitDriving(s, () -> r.items.size() == 2, "two elements");
            s.run(Job.yieldNow().then(Job.yieldNow()));
            assertThat(produced).hasValue(2);
            r.subscription.request(Long.MAX_VALUE);
            kind.awaitDriving(s, r::ended, "the end of the stream");
            assertThat(r.items).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
            assertThat(r.complete).isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingWithdrawsAPendingTakeSoNothingIsLost(SchedulerKind kind) {
        kind.use(s -> {
            Channel<String> ch = new Channel<>("source");
            Recorder<String> r = new Recorder<>(5);
            Flows.publisher(s, ch.take().map(Optional::of)).subscribe(r);
            s.run(ch.send("a"));
            kind.awaitDriving(s, () -> r.items.size() == 1, "the first element");
            r.subscription.cancel();
            s.run(ch.send("b"));
            assertThat(s.run(ch.take())).as("the cancelled publisher took nothing more").isEqualTo("b");
            assertThat(r.items).containsExactly("a");
            assertThat(r.ended()).isFalse();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aFailingSourceFailsTheStreamAndABadRequestIsAnError(SchedulerKind kind) {
        kind.use(s -> {
            IllegalStateException boom = new IllegalStateException("boom");
            Recorder<Integer> failing = new Recorder<>(1);
            Flows.publisher(s, Job.<Optional<Integer>>failure(boom)).subscribe(failing);
            kind.awaitDriving(s, failing::ended, "onError");
            assertThat(failing.error).hasValue(boom);

            Recorder<Integer> bad = new Recorder<>(0);
            Flows.publisher(s, upTo(3, new AtomicInteger())).subscribe(bad);
            kind.awaitDriving(s, bad::ended, "onError");
            assertThat(bad.error.get()).isInstanceOf(IllegalArgumentException.class);
            assertThat(bad.items).isEmpty();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aSubscriberThatThrowsIsCancelledAndItsFailureReported(SchedulerKind kind) {
        UncaughtRecorder uncaught = new UncaughtRecorder();
        IllegalStateException thrown = new IllegalStateException("subscriber bug");
        kind.use(uncaught, s -> {
            AtomicInteger produced = new AtomicInteger();
            Recorder<Integer> r = new Recorder<>(Long.MAX_VALUE) {
                @Override
                public void onNext(Integer item) {
                    super.onNext(item);
                    throw thrown;
                }
            };
            Flows.publisher(s, upTo(10, produced)).subscribe(r);
            kind.awaitDriving(s, () -> !uncaught.failures().isEmpty(), "the uncaught failure");
            assertThat(r.items).containsExactly(0);
            assertThat(produced).hasValue(1);
        });
        assertThat(uncaught.failures()).containsExactly(thrown);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void bothAdaptersTogetherKeepOneElementInFlight(SchedulerKind kind) {
        kind.use(s -> {
            AtomicInteger produced = new AtomicInteger();
            Channel<Integer> ch = new Channel<>("sink");
            ChannelSubscriber<Integer> sink = Flows.subscriber(s, ch);
            Flows.publisher(s, upTo(5, produced)).subscribe(sink);
            List<Integer> taken = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                taken.add(s.run(ch.take()));
                assertThat(produced.get()).as("produced after %d taken", taken.size()).isLessThanOrEqualTo(taken.size() + 1);
            }
            Job<Boolean> rest = Alt.<Boolean>choose(ch.take().wrap(x -> {
                taken.add(x);
                return true;
            }), sink.done().wrap(v -> false));
            while (s.run(rest)) {
                assertThat(produced.get()).isLessThanOrEqualTo(taken.size() + 1);
            }
            assertThat(taken).containsExactly(0, 1, 2, 3, 4);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void theSubscribersDoneFailsWithTheStreamsErrorAndCancelStopsUpstream(SchedulerKind kind) {
        kind.use(s -> {
            IllegalStateException boom = new IllegalStateException("boom");
            AtomicInteger calls = new AtomicInteger();
            Job<Optional<Integer>> oneThenFail = Job.defer(() -> calls.incrementAndGet() == 1
                    ? Job.result(Optional.of(7)) : Job.failure(boom));
            Channel<Integer> ch = new Channel<>();
            ChannelSubscriber<Integer> sink = Flows.subscriber(s, ch);
            Flows.publisher(s, oneThenFail).subscribe(sink);
            assertThat(s.run(ch.take())).isEqualTo(7);
            assertThat(s.runOutcome(sink.done())).isEqualTo(Outcome.failure(boom));

            Channel<String> upstream = new Channel<>("upstream");
            Channel<String> down = new Channel<>("down");
            ChannelSubscriber<String> cancelled = Flows.subscriber(s, down);
            Flows.publisher(s, upstream.take().map(Optional::of)).subscribe(cancelled);
            s.run(upstream.send("x"));
            assertThat(s.run(down.take())).isEqualTo("x");
            cancelled.cancel();
            s.run(upstream.send("y"));
            assertThat(s.run(upstream.take())).as("the cancelled chain took nothing").isEqualTo("y");
        });
    }
}
