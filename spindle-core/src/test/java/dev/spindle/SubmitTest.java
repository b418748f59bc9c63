package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code submit} returns a {@link CompletableFuture} of the fiber's value or failure, and cancelling that
 * future cancels the fiber, running its finalizers.
 */
class SubmitTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void theFutureCompletesWithTheValue(SchedulerKind kind) {
        kind.use(s -> {
            CompletableFuture<Integer> f = s.submit(Job.yieldNow().then(Job.result(42)));
            kind.awaitDriving(s, f::isDone, "the future");
            assertThat(f).isCompletedWithValue(42);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void theFutureFailsWithTheFailure(SchedulerKind kind) {
        IllegalStateException boom = new IllegalStateException("boom");
        kind.use(s -> {
            CompletableFuture<Integer> f = s.submit(Job.yieldNow().then(Job.failure(boom)));
            kind.awaitDriving(s, f::isDone, "the future");
            assertThat(f).isCompletedExceptionally().failsWithin(java.time.Duration.ZERO)
                    .withThrowableOfType(java.util.concurrent.ExecutionException.class).havingCause().isSameAs(boom);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void theFutureOfAJobThatCancelsItselfIsCancelled(SchedulerKind kind) {
        kind.use(s -> {
            CompletableFuture<Integer> f = s.submit(Job.yieldNow().then(Job.cancelled()));
            kind.awaitDriving(s, f::isDone, "the future");
            assertThat(f).isCancelled();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingTheFutureCancelsTheFiberAndRunsItsFinalizer(SchedulerKind kind) {
        for (boolean mayInterrupt : new boolean[] {true, false}) {
            kind.use(s -> {
                AtomicBoolean started = new AtomicBoolean();
                AtomicInteger finalized = new AtomicInteger();
                CompletableFuture<Void> f = s.submit(TestJobs.signalThenForever(started)
                        .onCancel(TestJobs.increment(finalized)));
                kind.awaitDriving(s, started::get, "the fiber to start");
                assertThat(f.cancel(mayInterrupt)).isTrue();
                assertThat(f).isCancelled();
                kind.awaitDriving(s, () -> finalized.get() > 0, "the onCancel finalizer");
                assertThat(finalized).as("finalizer runs (mayInterruptIfRunning=%s)", mayInterrupt).hasValue(1);
            });
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingACompletedFutureChangesNothing(SchedulerKind kind) {
        kind.use(s -> {
            CompletableFuture<Integer> f = s.submit(Job.result(1));
            kind.awaitDriving(s, f::isDone, "the future");
            assertThat(f.cancel(true)).isFalse();
            assertThat(f).isCompletedWithValue(1);
        });
    }
}
