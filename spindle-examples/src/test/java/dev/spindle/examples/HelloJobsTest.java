package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The jobs of {@link HelloJobs} give what the README says, on every kind of scheduler. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class HelloJobsTest {

    /** {@code answer()} gives 42. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void answerIs42(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(HelloJobs.answer())).isEqualTo(42);
        }
    }

    /** {@code runAnswer()} runs it on its own scheduler. */
    @Test
    void runAnswerIs42() {
        assertThat(HelloJobs.runAnswer()).isEqualTo(42);
    }

    /** Building a job runs nothing; running it twice runs it twice. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void jobsAreLazyAndRerunnable(SchedulerKind kind) {
        AtomicInteger runs = new AtomicInteger();
        Job<Integer> counter = HelloJobs.countRuns(runs);
        assertThat(runs).hasValue(0);
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(counter)).isEqualTo(1);
            assertThat(fixture.run(counter)).isEqualTo(2);
        }
    }

    /** {@code recover} turns a parse failure into the fallback, and leaves a success alone. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void parseOrFallsBack(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(HelloJobs.parseOr("12", -1))).isEqualTo(12);
            assertThat(fixture.run(HelloJobs.parseOr("twelve", -1))).isEqualTo(-1);
        }
    }

    /** {@code attempt} gives the failure as an outcome instead of throwing. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void tryParseGivesOutcomes(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(HelloJobs.tryParse("7"))).isEqualTo(Outcome.success(7));
            assertThat(fixture.run(HelloJobs.tryParse("seven")))
                    .isInstanceOfSatisfying(Outcome.Failure.class, f ->
                            assertThat(f.error()).isInstanceOf(NumberFormatException.class));
        }
    }

    /** A million-step loop through {@code flatMap} completes (no StackOverflowError) with the right sum. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void millionStepLoopRunsInBoundedStack(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(HelloJobs.sumTo(1_000_000))).isEqualTo(500_000_500_000L);
        }
    }
}
