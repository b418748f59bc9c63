package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.fixture.Patience;
import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stopping a scheduler from one of its own fibers: {@code close()} would wait for its caller and throws at
 * once; {@code shutdown()} stops accepting work and lets the fibers finish, the scheduler terminating after
 * the last; {@code shutdownNow()} cancels every fiber, the caller included, and returns without waiting.
 * Every case runs on every scheduler kind (the simulator's are in spindle-test).
 */
@Timeout(60)
class ShutdownFromInsideTest {
    private static final Duration SHORT = Patience.scale(Duration.ofMillis(5));

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void closeFromOwnFiberThrowsAtOnceAndLeavesTheSchedulerOpen(SchedulerKind kind) {
        kind.use(s -> {
            Outcome<Void> outcome = s.runOutcome(Job.run(s::close));
            assertThat(outcome).isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("close() called from a fiber of scheduler")
                    .hasMessageContaining("shutdown()")
                    .hasMessageContaining("shutdownNow()"));
            assertThat(s.isClosed()).isFalse();
            assertThat(s.run(Job.result(42))).isEqualTo(42);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void closeFromADirectBodyThrowsAtOnce(SchedulerKind kind) {
        kind.use(s -> {
            Outcome<Void> outcome = s.runOutcome(Job.direct(() -> {
                s.close();
                return null;
            }));
            assertThat(outcome).isInstanceOfSatisfying(Outcome.Failure.class,
                    f -> assertThat(f.error()).isInstanceOf(IllegalStateException.class));
            assertThat(s.isClosed()).isFalse();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void shutdownFromOwnFiberLetsRunningFibersFinishThenTerminates(SchedulerKind kind) {
        AtomicInteger finished = new AtomicInteger();
        SchedulerFixture fixture = kind.open(new UncaughtRecorder());
        Scheduler s = fixture.scheduler();
        Fiber<Void> sibling = s.run(Job.sleep(SHORT).then(TestJobs.increment(finished)).startDetached());
        String afterShutdown = s.run(Job.run(s::shutdown)
                .then(Job.sleep(SHORT)) // a fiber goes on after shutdown(), and may start children
                .then(Job.sleep(SHORT).then(TestJobs.increment(finished)).start())
                .flatMap(Fiber::join)
                .then(Job.of(() -> s.isClosed() ? "closed, still running" : "open")));
        assertThat(afterShutdown).isEqualTo("closed, still running");
        assertThatThrownBy(() -> s.submit(Job.unit()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("is closed");
        if (kind.isSingleThreaded()) {
            s.close(); // the sibling runs only while some thread drives the scheduler
        } else {
            Await.until(s::isTerminated, "the scheduler to terminate after its last fiber");
        }
        assertThat(sibling.isDone()).isTrue();
        assertThat(finished).hasValue(2);
        assertThat(s.isTerminated()).isTrue();
        fixture.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void shutdownWithNothingLeftTerminatesAtOnce(SchedulerKind kind) {
        SchedulerFixture fixture = kind.open(new UncaughtRecorder());
        Scheduler s = fixture.scheduler();
        s.run(Job.run(s::shutdown));
        Await.until(s::isTerminated, "the scheduler to terminate");
        s.close(); // idempotent, and joins the worker threads
        fixture.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void shutdownNowFromOwnFiberCancelsEveryFiberTheCallerIncludedAndReturnsAtOnce(SchedulerKind kind) {
        AtomicInteger finalized = new AtomicInteger();
        AtomicBoolean returned = new AtomicBoolean();
        AtomicReference<Outcome<Void>> callerOutcome = new AtomicReference<>();
        SchedulerFixture fixture = kind.open(new UncaughtRecorder());
        Scheduler s = fixture.scheduler();
        for (int i = 0; i < 3; i++) {
            s.submit(TestJobs.forever().onCancel(TestJobs.increment(finalized)));
        }
        Job<Void> caller = TestJobs.forever().onCancel(TestJobs.increment(finalized)).start()
                .then(Job.run(() -> {
                    s.shutdownNow();
                    returned.set(true);
                }))
                .then(TestJobs.forever()); // its cancel is seen at the next bind
        callerOutcome.set(s.runOutcome(caller));
        assertThat(returned).as("shutdownNow() returned inside the fiber").isTrue();
        assertThat(callerOutcome.get()).isInstanceOf(Outcome.Cancelled.class);
        s.close(); // from outside: waits for the finalizers
        assertThat(finalized).hasValue(4);
        assertThat(s.isTerminated()).isTrue();
        fixture.close();
    }
}
