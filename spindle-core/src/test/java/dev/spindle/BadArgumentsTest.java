package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad input fails at once with an exception naming the problem: null arguments, negative durations, bad worker counts. */
class BadArgumentsTest {
    private static final Job<Integer> JOB = Job.result(1);

    static Stream<Arguments> nullArguments() {
        Scheduler s = Scheduler.singleThreaded(); // never runs anything: every call below throws first
        return Stream.of(
                call("Job.failure", "error", () -> Job.failure(null)),
                call("Job.of", "body", () -> Job.of(null)),
                call("Job.run", "action", () -> Job.run(null)),
                call("Job.defer", "factory", () -> Job.defer(null)),
                call("Job.uncancelable", "job", () -> Job.uncancelable(null)),
                call("Job.bracket", "acquire", () -> Job.bracket(null, r -> JOB, r -> Job.unit())),
                call("Job.bracket", "use", () -> Job.bracket(JOB, null, r -> Job.unit())),
                call("Job.bracket", "release", () -> Job.<Integer, Integer>bracket(JOB, r -> JOB, null)),
                call("Job.sleep", "sleep duration", () -> Job.sleep(null)),
                call("flatMap", "f", () -> JOB.flatMap(null)),
                call("map", "f", () -> JOB.map(null)),
                call("then", "next", () -> JOB.then(null)),
                call("recover", "handler", () -> JOB.recover(null)),
                call("recoverWith", "handler", () -> JOB.recoverWith(null)),
                call("ensure", "finalizer", () -> JOB.ensure(null)),
                call("onCancel", "finalizer", () -> JOB.onCancel(null)),
                call("Scheduler.run", "job", () -> s.run(null)),
                call("Scheduler.runOutcome", "job", () -> s.runOutcome(null)),
                call("Scheduler.submit", "job", () -> s.submit(null)),
                call("Scheduler.execute", "task", () -> s.execute(null)),
                call("Builder.name", "name", () -> Scheduler.builder().name(null)),
                call("Builder.uncaughtHandler", "handler", () -> Scheduler.builder().uncaughtHandler(null)),
                call("Builder.starvationThreshold", "threshold", () -> Scheduler.builder().starvationThreshold(null)));
    }

    /** A call of {@code method} with a null argument, whose exception's message must be exactly {@code argument}. */
    private static Arguments call(String method, String argument, Executable call) {
        return Arguments.of(method, argument, call);
    }

    @ParameterizedTest(name = "{0}({1} = null)")
    @MethodSource("nullArguments")
    void nullArgumentsFailWithNullPointerExceptionNamingTheArgument(String method, String argument, Executable call) {
        assertThatThrownBy(call::execute).isInstanceOf(NullPointerException.class).hasMessage(argument);
    }

    @Test
    void aStarvationThresholdIsZeroOrAtLeastAMillisecond() {
        for (Duration bad : new Duration[] {Duration.ofNanos(-1), Duration.ofNanos(1), Duration.ofMillis(1).minusNanos(1)}) {
            assertThatThrownBy(() -> Scheduler.builder().starvationThreshold(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("starvation threshold must be zero (off) or at least 1 ms, was " + bad);
        }
        Scheduler.builder().starvationThreshold(Duration.ZERO).starvationThreshold(Duration.ofMillis(1));
    }

    @Test
    void aNegativeSleepFailsWithIllegalArgumentException() {
        assertThatThrownBy(() -> Job.sleep(Duration.ofNanos(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sleep duration must not be negative, was PT-0.000000001S");
        assertThatThrownBy(() -> Job.sleep(Duration.ofDays(-3))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sleep duration must not be negative, was PT-72H");
    }

    static Stream<Duration> sleepsTooLongForNanoseconds() {
        return Stream.of(Duration.ofSeconds(Long.MAX_VALUE), Duration.ofDays(365L * 1_000),
                Duration.ofNanos(Long.MAX_VALUE), Duration.ofNanos(Long.MAX_VALUE - 1));
    }

    /**
     * A sleep longer than a long can count in nanoseconds is accepted and saturates instead of overflowing:
     * it is still asleep when a 1 ms sleep ends (a wrapped-round deadline would lie in the past and fire at
     * once), and the race removes its timer (the leak check of {@link SchedulerKind#use}).
     */
    @ParameterizedTest
    @MethodSource("sleepsTooLongForNanoseconds")
    void aSleepTooLongForNanosecondsIsAcceptedAndNeverEnds(Duration tooLong) {
        SchedulerKind.WORKERS_1.use(s -> assertThat(s.run(Job.race(Job.sleep(tooLong).then(Job.result("long")),
                Job.sleep(Duration.ofMillis(1)).then(Job.result("short")))))
                .isEqualTo(new Either.Right<>("short")));
    }

    /** The same for a choice's timeout alternative. */
    @ParameterizedTest
    @MethodSource("sleepsTooLongForNanoseconds")
    void anAltAfterTooLongForNanosecondsNeverFires(Duration tooLong) {
        Alt<String> choice = Alt.choose(Alt.after(tooLong).map(v -> "long"),
                Alt.after(Duration.ofMillis(1)).map(v -> "short"));
        SchedulerKind.WORKERS_1.use(s -> assertThat(s.run(choice)).isEqualTo("short"));
    }

    static Stream<Arguments> badWorkerCounts() {
        return Stream.of(
                Arguments.of("Scheduler.create(0)", (Executable) () -> Scheduler.create(0)),
                Arguments.of("Scheduler.create(-1)", (Executable) () -> Scheduler.create(-1)),
                Arguments.of("builder().workers(0)", (Executable) () -> Scheduler.builder().workers(0)),
                Arguments.of("builder().workers(MIN_VALUE)",
                        (Executable) () -> Scheduler.builder().workers(Integer.MIN_VALUE)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badWorkerCounts")
    void aWorkerCountBelowOneFailsWithIllegalArgumentException(String call, Executable create) {
        assertThatThrownBy(create::execute)
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("worker count");
    }
}
