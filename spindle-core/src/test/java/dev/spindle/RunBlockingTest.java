package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.fixture.SchedulerKind;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code Scheduler.run} blocks the calling thread and returns the value, rethrows an unchecked failure as
 * is, wraps a checked one in {@link CompletionException}, and throws {@link CancellationException} for a
 * cancelled job; {@code runOutcome} gives the same as an {@link Outcome}.
 */
class RunBlockingTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void runReturnsTheValue(SchedulerKind kind) {
        kind.use(s -> {
            String v = s.run(Job.sleep(Duration.ofMillis(1)).then(Job.result("value")));
            assertThat(v).isEqualTo("value");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void runRethrowsAnUncheckedFailureAsIs(SchedulerKind kind) {
        IllegalStateException boom = new IllegalStateException("boom");
        StackOverflowError error = new StackOverflowError("pretend");
        kind.use(s -> {
            assertThatThrownBy(() -> s.run(Job.yieldNow().then(Job.failure(boom)))).isSameAs(boom);
            assertThatThrownBy(() -> s.run(Job.failure(error))).isSameAs(error);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void runWrapsACheckedFailureInCompletionException(SchedulerKind kind) {
        IOException io = new IOException("io");
        kind.use(s -> assertThatThrownBy(() -> s.run(Job.of(() -> {
            throw io;
        }))).isInstanceOf(CompletionException.class).cause().isSameAs(io));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void runThrowsCancellationExceptionForACancelledJob(SchedulerKind kind) {
        kind.use(s -> assertThatThrownBy(() -> s.run(Job.yieldNow().then(Job.cancelled())))
                .isInstanceOf(CancellationException.class));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void runOutcomeGivesEachKindOfEnd(SchedulerKind kind) {
        IllegalStateException boom = new IllegalStateException("boom");
        kind.use(s -> {
            assertThat(s.runOutcome(Job.result(1))).isEqualTo(Outcome.success(1));
            assertThat(s.runOutcome(Job.<Integer>failure(boom))).isEqualTo(Outcome.failure(boom));
            assertThat(s.runOutcome(Job.<Integer>cancelled())).isEqualTo(Outcome.cancelled());
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void runFromSeveralThreadsAtOnceGivesEachItsOwnValue(SchedulerKind kind) {
        kind.use(s -> {
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                threads.add(new Thread(() -> {
                    try {
                        for (int i = 0; i < 50; i++) {
                            int expected = id * 1000 + i;
                            Job<Integer> job = Job.sleep(Duration.ofNanos(i % 3)).then(Job.result(expected));
                            int v = s.run(job);
                            assertThat(v).isEqualTo(expected);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }, "runner-" + t));
            }
            threads.forEach(Thread::start);
            threads.forEach(Await::join);
            assertThat(errors).isEmpty();
        });
    }
}
