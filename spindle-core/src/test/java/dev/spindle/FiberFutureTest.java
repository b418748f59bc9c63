package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Fiber#toCompletableFuture()}: the fiber's value, failure or cancellation; cancelling the future
 * cancels the fiber (its finalizers run), as {@link Scheduler#submit}'s future does.
 */
class FiberFutureTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void theFutureCompletesWithTheFibersValue(SchedulerKind kind) {
        kind.use(s -> {
            Fiber<Integer> f = s.run(Job.yieldNow().then(Job.result(42)).startDetached());
            CompletableFuture<Integer> future = f.toCompletableFuture();
            kind.awaitDriving(s, future::isDone, "the future");
            assertThat(future).isCompletedWithValue(42);
            assertThat(f.toCompletableFuture()).as("a future of a finished fiber is complete at once")
                    .isCompletedWithValue(42);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void theFutureFailsWithTheFibersFailure(SchedulerKind kind) {
        IllegalStateException boom = new IllegalStateException("boom");
        kind.use(s -> {
            Fiber<Integer> f = s.run(Job.yieldNow().then(Job.<Integer>failure(boom)).startDetached());
            CompletableFuture<Integer> future = f.toCompletableFuture();
            kind.awaitDriving(s, future::isDone, "the future");
            assertThat(future).failsWithin(Duration.ZERO).withThrowableOfType(ExecutionException.class)
                    .havingCause().isSameAs(boom);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void theFutureOfACancelledFiberIsCancelled(SchedulerKind kind) {
        kind.use(s -> {
            Fiber<Void> f = s.run(TestJobs.forever().startDetached());
            CompletableFuture<Void> future = f.toCompletableFuture();
            s.run(f.cancel());
            // the future is completed by a joiner of its own, which may run just after cancel() returns
            assertThatThrownBy(future::join).isInstanceOf(CancellationException.class);
            assertThat(future).isCancelled();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingTheFutureCancelsTheFiberAndRunsItsFinalizer(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean started = new AtomicBoolean();
            AtomicInteger finalized = new AtomicInteger();
            Fiber<Void> f = s.run(TestJobs.signalThenForever(started).onCancel(TestJobs.increment(finalized))
                    .startDetached());
            kind.awaitDriving(s, started::get, "the fiber to start");
            CompletableFuture<Void> future = f.toCompletableFuture();
            assertThat(future.cancel(false)).isTrue();
            assertThat(future).isCancelled();
            assertThat(s.run(f.outcome())).isEqualTo(Outcome.cancelled());
            assertThat(finalized).hasValue(1);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aFiberInsideAJobConvertsToo(SchedulerKind kind) {
        kind.use(s -> {
            int v = s.run(Job.of(() -> 20).start().flatMap(f -> Job.fromFuture(
                    () -> f.toCompletableFuture().thenApply(x -> x + 22))));
            assertThat(v).isEqualTo(42);
        });
    }
}
