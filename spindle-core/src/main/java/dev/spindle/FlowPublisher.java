package dev.spindle;

import dev.spindle.sync.Event;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link Flows#publisher}: one pump fiber per subscription.
 *
 * <pre>
 * Implementation overview
 * =======================
 * Every signal to the subscriber comes from its pump fiber (onSubscribe first, then onNext until the
 * end), so they are serial (rule 1.3) whichever threads call request and cancel.
 *
 * Demand: request(n) adds n to demand (capped at Long.MAX_VALUE, which stands for unbounded) and signals
 * wake, an AUTO event; the pump runs the source only while demand > 0 and otherwise waits on wake. A signal
 * sent between the pump's check and its wait stays in the event, so no request is missed.
 *
 * Cancellation: cancel() sets cancelled and cancels the pump fiber, which withdraws a wait in progress
 * (source or wake). The value of a source that has already produced one is delivered by the map step that
 * received it (a map is no cancellation point), so nothing taken is lost. request(n &lt;= 0) records n and
 * stops the pump the same way; the pump's finalizer then signals onError (rule 3.9) unless the stream has
 * ended already.
 * The fiber field is written after the start; cancel writes cancelled and then reads fiber, subscribe
 * writes fiber and then reads cancelled (both volatile), so one of them cancels the fiber.
 * </pre>
 */
final class FlowPublisher<T> implements Flow.Publisher<T> {
    private final Scheduler scheduler;
    private final Job<Optional<T>> next;

    FlowPublisher(Scheduler scheduler, Job<Optional<T>> next) {
        this.scheduler = scheduler;
        this.next = next;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> subscriber) {
        Pump<T> pump = new Pump<>(Objects.requireNonNull(subscriber, "subscriber"), next);
        FiberImpl<Void> fiber = scheduler.startRoot(pump.job(), true);
        pump.fiber = fiber;
        if (pump.cancelled) {
            fiber.requestCancel(fiber.engine.currentWorker());
        }
    }

    @Override
    public String toString() {
        return "Flows.publisher[" + scheduler + "]";
    }

    /** One subscription and the fiber that serves it. */
    private static final class Pump<T> implements Flow.Subscription {
        private final Job<Optional<T>> source;
        /** Null once cancelled or ended (rule 3.13: drop the reference). */
        private volatile Flow.Subscriber<? super T> subscriber;
        private final AtomicLong demand = new AtomicLong();
        private final Event wake = new Event(Event.Mode.AUTO, false, "demand of a Flows.publisher subscription");
        volatile boolean cancelled;
        /** The first non-positive request, or null. */
        private volatile Long badRequest;
        /** Whether the subscriber threw: the pump then fails instead of signalling onError. */
        private boolean subscriberFailed;
        volatile FiberImpl<?> fiber;

        Pump(Flow.Subscriber<? super T> subscriber, Job<Optional<T>> source) {
            this.subscriber = subscriber;
            this.source = source;
        }

        Job<Void> job() {
            return Job.run(() -> signal(s -> s.onSubscribe(this)))
                    .then(loop())
                    .recoverWith(this::failed)
                    .ensure(Job.run(this::endedByBadRequest));
        }

        private Job<Void> loop() {
            return Job.defer(() -> {
                if (cancelled || subscriber == null) {
                    return Job.unit();
                }
                if (demand.get() == 0) {
                    return wake.await().then(loop());
                }
                return source.map(this::emit).flatMap(more -> more ? loop() : Job.unit());
            });
        }

        /** Delivers what the source gave; false when the stream has ended. */
        private boolean emit(Optional<T> element) {
            if (element.isEmpty()) {
                signal(Flow.Subscriber::onComplete);
                subscriber = null;
                return false;
            }
            T value = element.get();
            demand.decrementAndGet();
            signal(s -> s.onNext(value));
            return subscriber != null;
        }

        /** Signals the subscriber, if any; a subscriber that throws is cancelled and the exception kept. */
        private void signal(java.util.function.Consumer<Flow.Subscriber<? super T>> call) {
            Flow.Subscriber<? super T> s = subscriber;
            if (s == null) {
                return;
            }
            try {
                call.accept(s);
            } catch (RuntimeException | Error e) {
                subscriberFailed = true;
                cancelled = true;
                subscriber = null;
                throw e;
            }
        }

        private Job<Void> failed(Throwable e) {
            if (subscriberFailed) {
                return Job.failure(e); // to the uncaught handler
            }
            signal(s -> s.onError(e));
            subscriber = null;
            return Job.unit();
        }

        /** After the pump's end, however it came: a bad request still owes the subscriber its onError. */
        private void endedByBadRequest() {
            Long n = badRequest;
            if (n != null) {
                signal(s -> s.onError(new IllegalArgumentException(
                        "Subscription.request needs a positive number (rule 3.9), was " + n)));
            }
            subscriber = null;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                if (badRequest == null) {
                    badRequest = n;
                }
                cancelFiber();
                return;
            }
            demand.accumulateAndGet(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
            wake.signal();
        }

        @Override
        public void cancel() {
            cancelled = true;
            cancelFiber();
        }

        private void cancelFiber() {
            FiberImpl<?> f = fiber;
            if (f != null) {
                f.requestCancel(f.engine.currentWorker());
            } else {
                cancelled = true; // subscribe() re-reads it once the fiber is known
            }
        }
    }
}
