package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A failure nobody can observe, of an {@code execute}d task or a {@code forget}-ten fiber, reaches the
 * uncaught handler set with {@code Scheduler.builder().uncaughtHandler(...)}, and the worker survives.
 */
class UncaughtHandlerTest {
    private final IllegalStateException boom = new IllegalStateException("nobody is waiting for me");
    private final AtomicBoolean ran = new AtomicBoolean();

    /** Once the failing code ran: the workers are alive and still run jobs. */
    private void assertStillWorking(SchedulerKind kind, Scheduler s) {
        kind.awaitDriving(s, ran::get, "the failing code to run");
        for (int i = 0; i < 2 * Math.max(1, kind.workers()); i++) {
            assertThat(s.run(Job.yieldNow().then(Job.result("alive")))).isEqualTo("alive");
        }
        FiberFixtures.assertWorkersAlive(s);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aFailingExecutedTaskReachesTheHandler(SchedulerKind kind) {
        UncaughtRecorder uncaught = new UncaughtRecorder();
        kind.use(uncaught, s -> {
            s.execute(() -> {
                ran.set(true);
                throw boom;
            });
            assertStillWorking(kind, s);
            s.close(); // the task has surely ended (and reported) once close() returns
        });
        uncaught.assertExactly(boom);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aFailingForgottenFiberReachesTheHandler(SchedulerKind kind) {
        UncaughtRecorder uncaught = new UncaughtRecorder();
        kind.use(uncaught, s -> {
            s.run(Job.yieldNow().then(Job.run(() -> ran.set(true))).then(Job.failure(boom)).forget());
            assertStillWorking(kind, s);
            s.close();
        });
        uncaught.assertExactly(boom);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void successesAndObservedFailuresDoNotReachTheHandler(SchedulerKind kind) {
        UncaughtRecorder uncaught = new UncaughtRecorder();
        AtomicInteger succeeded = new AtomicInteger();
        kind.use(uncaught, s -> {
            s.execute(succeeded::incrementAndGet);
            s.run(TestJobs.increment(succeeded).forget());
            s.runOutcome(Job.failure(boom));                   // observed by runOutcome
            s.submit(Job.failure(boom));                       // observed through the future
            s.run(Job.failure(boom).start().then(Job.unit())); // a child: its parent could have joined it
            s.close();
        });
        assertThat(succeeded).hasValue(2);
        uncaught.assertNone();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aThrowingHandlerKillsNoWorker(SchedulerKind kind) {
        AtomicInteger calls = new AtomicInteger();
        SchedulerFixture fixture = kind.open(e -> {
            calls.incrementAndGet();
            throw new IllegalStateException("the uncaught handler itself fails (expected: printed to stderr)");
        });
        Scheduler s = fixture.scheduler();
        try {
            s.run(Job.run(() -> ran.set(true)).then(Job.failure(boom)).forget());
            assertStillWorking(kind, s);
        } finally {
            fixture.close();
        }
        assertThat(calls).hasValue(1);
    }
}
