package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every sleeper wakes, and a cancelled sleeper leaves no timer behind. */
class TimerTest {
    private static final int SLEEPERS = 100_000;

    /** Starts {@code n} child fibers, the i-th running {@code body(i)}, one after another. */
    private static Job<Void> startAll(int n, java.util.function.IntFunction<Job<Void>> body) {
        Job<Void> job = Job.unit();
        for (int i = 0; i < n; i++) {
            job = job.then(body.apply(i).start()).then(Job.unit());
        }
        return job;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aHundredThousandSleepersAllWake(SchedulerKind kind) {
        AtomicInteger woke = new AtomicInteger();
        kind.use(s -> {
            s.run(startAll(SLEEPERS, i -> Job.sleep(Duration.ofMillis(1 + i % 20)).then(TestJobs.increment(woke))));
            kind.awaitDriving(s, () -> woke.get() == SLEEPERS, SLEEPERS + " sleepers to wake (" + woke + " so far)");
            assertThat(s.engine.timers().size()).as("timers left once every sleeper woke").isZero();
        });
        assertThat(woke).hasValue(SLEEPERS);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aCancelledSleeperLeavesNoTimerBehind(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean started = new AtomicBoolean();
            AtomicInteger woke = new AtomicInteger();
            Job<Void> sleeper = TestJobs.signalThenForever(started).then(TestJobs.increment(woke));
            assertThat(s.run(TestJobs.cancelOnceStarted(sleeper, started::get))).isEqualTo(Outcome.cancelled());
            assertThat(s.engine.timers().size()).as("timers left right after cancel() returned").isZero();
            assertThat(woke).hasValue(0);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aSleepOfCenturiesIsCancelledLikeAnyOther(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean started = new AtomicBoolean();
            Job<Void> centuries = Job.run(() -> started.set(true)).then(Job.sleep(Duration.ofSeconds(Long.MAX_VALUE)));
            Job<Outcome<Void>> job = Job.sleep(Duration.ofMillis(1)).start() // an earlier timer fires meanwhile
                    .then(TestJobs.cancelOnceStarted(centuries, started::get));
            assertThat(s.run(job)).isEqualTo(Outcome.cancelled());
            kind.awaitDriving(s, () -> s.engine.timers().size() == 0, "the one-millisecond timer to fire");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void tenThousandCancelledSleepersLeaveNoTimerBehind(SchedulerKind kind) {
        int n = 10_000;
        kind.use(s -> {
            AtomicInteger started = new AtomicInteger();
            AtomicInteger finalized = new AtomicInteger();
            Job<Void> sleeper = Job.run(started::incrementAndGet).then(TestJobs.forever())
                    .onCancel(TestJobs.increment(finalized));
            Job<Void> parent = startAll(n, i -> sleeper).then(TestJobs.forever());
            s.run(parent.start().flatMap(p -> TestJobs.awaitTrue(() -> started.get() == n).then(p.cancel())));
            kind.awaitDriving(s, () -> finalized.get() == n, "every sleeper to be cancelled");
            assertThat(s.engine.timers().size()).as("timers left after cancelling every sleeper").isZero();
        });
    }
}
