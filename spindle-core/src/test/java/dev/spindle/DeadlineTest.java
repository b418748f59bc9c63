package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Absolute deadlines: {@link Job#sleepUntil} and {@link Alt#at} on the scheduler's clock; an instant already
 * past completes at once; another alternative winning or a cancellation removes the timer (the leak check
 * after each test finds no timer left).
 */
class DeadlineTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void sleepUntilWakesNoEarlierThanTheInstant(SchedulerKind kind) {
        kind.use(s -> {
            Job<Boolean> job = Job.now().flatMap(t0 -> {
                Instant deadline = t0.plusMillis(20);
                return Job.sleepUntil(deadline).then(Job.now()).map(t1 -> !t1.isBefore(deadline));
            });
            assertThat((boolean) s.run(job)).isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void anInstantAlreadyPastCompletesAtOnce(SchedulerKind kind) {
        kind.use(s -> {
            s.run(Job.sleepUntil(Instant.EPOCH));
            s.run(Job.now().flatMap(Job::sleepUntil));
            Channel<String> never = new Channel<>();
            assertThat(s.run(Alt.<String>choose(never.take(), Alt.at(Instant.MIN).wrap(v -> "past")))).isEqualTo("past");
            assertThat(s.run(Alt.at(Instant.EPOCH).<String>wrap(v -> "ran as a job"))).isEqualTo("ran as a job");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void atWinsAChooseWhenNothingElseIsReady(SchedulerKind kind) {
        kind.use(s -> {
            Channel<String> never = new Channel<>();
            Job<String> job = Job.now().flatMap(t0 -> Alt.<String>choose(never.take(),
                    Alt.at(t0.plusMillis(10)).wrap(v -> "deadline")));
            assertThat(s.run(job)).isEqualTo("deadline");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aLosingAtLeavesNoTimer(SchedulerKind kind) {
        kind.use(s -> {
            Instant farAhead = s.now().plus(Duration.ofDays(365));
            assertThat(s.run(Alt.<String>choose(Alt.always("ready"), Alt.at(farAhead).wrap(v -> "late"))))
                    .isEqualTo("ready");
            Channel<String> ch = new Channel<>();
            Job<String> job = ch.send("message").start().then(Alt.<String>choose(Alt.at(farAhead).wrap(v -> "late"),
                    ch.take()));
            assertThat(s.run(job)).isEqualTo("message");
            assertThat(s.engine.timers().size()).isZero();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingASleepUntilRemovesItsTimerAndRunsFinalizers(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean started = new AtomicBoolean();
            AtomicInteger finalized = new AtomicInteger();
            Instant farAhead = Instant.MAX;
            Job<Void> sleeper = Job.run(() -> started.set(true)).then(Job.sleepUntil(farAhead))
                    .onCancel(TestJobs.increment(finalized));
            Job<Void> alt = Job.run(() -> started.set(true)).then(Alt.at(farAhead))
                    .onCancel(TestJobs.increment(finalized));
            assertThat(s.run(TestJobs.cancelOnceStarted(sleeper, started::get))).isEqualTo(Outcome.cancelled());
            started.set(false);
            assertThat(s.run(TestJobs.cancelOnceStarted(alt, started::get))).isEqualTo(Outcome.cancelled());
            assertThat(finalized).hasValue(2);
        });
    }

    @Test
    void nullInstantsAreRefused() {
        assertThatThrownBy(() -> Job.sleepUntil(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Alt.at(null)).isInstanceOf(NullPointerException.class);
    }
}
