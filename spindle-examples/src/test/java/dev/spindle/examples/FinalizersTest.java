package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The finalizers of {@link Finalizers} run exactly when the README says. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class FinalizersTest {
    private static final IOException DISK_FULL = new IOException("disk full");

    /** {@code ensure} closes the resource once after a success, a failure and a cancellation. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void ensureRunsOnEveryOutcome(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            assertRun(scheduler, log -> Finalizers.withResource(log, Job.result("ok")),
                    Outcome.success("ok"), "open", "close");
            assertRun(scheduler, log -> Finalizers.withResource(log, Job.failure(DISK_FULL)),
                    Outcome.failure(DISK_FULL), "open", "close");
            assertRun(scheduler, log -> Finalizers.withResource(log, Job.cancelled()),
                    Outcome.cancelled(), "open", "close");
        }
    }

    /** {@code onCancel} runs on cancellation only. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void onCancelRunsOnlyOnCancellation(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            assertRun(scheduler, log -> Finalizers.rollbackOnCancel(log, Job.result("ok")), Outcome.success("ok"));
            assertRun(scheduler, log -> Finalizers.rollbackOnCancel(log, Job.failure(DISK_FULL)),
                    Outcome.failure(DISK_FULL));
            assertRun(scheduler, log -> Finalizers.rollbackOnCancel(log, Job.cancelled()),
                    Outcome.cancelled(), "rolled back");
        }
    }

    /** An uncancelable region finishes its work; the cancellation takes effect right after it. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void uncancelableRegionRunsToItsEnd(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            assertRun(scheduler, Finalizers::commitThenStop, Outcome.cancelled(), "committed");
        }
    }

    private static void assertRun(Scheduler scheduler, Function<List<String>, Job<String>> scenario,
            Outcome<String> expected, String... expectedLog) {
        List<String> log = new CopyOnWriteArrayList<>();
        assertThat(scheduler.runOutcome(scenario.apply(log))).isEqualTo(expected);
        assertThat(log).containsExactly(expectedLog);
    }
}
