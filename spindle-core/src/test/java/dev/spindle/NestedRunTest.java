package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code Scheduler.run} called from inside a job on the same scheduler completes: the waiting worker keeps
 * running work (timers and other fibers included), so it cannot deadlock even with a single worker.
 */
@Timeout(60)
class NestedRunTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aNestedRunGivesItsValue(SchedulerKind kind) {
        kind.use(s -> assertThat(s.run(Job.of(() -> s.run(Job.of(() -> 41)) + 1))).isEqualTo(42));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aNestedRunWaitingForATimerCompletes(SchedulerKind kind) {
        Job<String> inner = Job.sleep(Duration.ofMillis(5)).then(Job.result("slept"));
        kind.use(s -> assertThat(s.run(Job.of(() -> s.run(inner)))).isEqualTo("slept"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aNestedRunWaitingForAFiberStartedByTheOuterJobCompletes(SchedulerKind kind) {
        kind.use(s -> {
            Job<Integer> job = Job.yieldNow().then(Job.result(1)).start().flatMap(child ->
                    Job.of(() -> s.run(child.join().map(x -> x + 1))));
            assertThat(s.run(job)).isEqualTo(2);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void runsNestedThreeDeepRethrowFailuresAtEachLevel(SchedulerKind kind) {
        IllegalStateException boom = new IllegalStateException("innermost");
        kind.use(s -> {
            Job<String> innermost = Job.sleep(Duration.ofMillis(1)).then(Job.failure(boom));
            Job<String> middle = Job.of(() -> s.run(innermost));
            Job<String> outer = Job.of(() -> s.run(middle.recover(e -> e == boom ? "recovered" : "wrong")));
            assertThat(s.run(outer)).isEqualTo("recovered");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void nestedRunsInManyFibersAtOnceComplete(SchedulerKind kind) {
        kind.use(s -> {
            Job<Integer> nested = Job.of(() -> s.run(Job.sleep(Duration.ofMillis(1)).then(Job.result(1))));
            Job<Integer> sum = Job.result(0);
            for (int i = 0; i < 20; i++) {
                Job<Integer> acc = sum;
                sum = nested.start().flatMap(f -> acc.flatMap(a -> f.join().map(b -> a + b)));
            }
            assertThat(s.run(sum)).isEqualTo(20);
        });
    }
}
