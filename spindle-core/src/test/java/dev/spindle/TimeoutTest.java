package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.Patience;
import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code timeout(d)} is a race with {@code sleep(d)} (on an alternative, a choose with {@code after(d)}):
 * the blog's two examples (a short delay under a longer limit gives its value; a long delay under a
 * shorter limit ends with {@link TimeoutException} and the step after the delay never runs), scaled from
 * seconds to 100/300/500 ms. The only time
 * assertion is the loose lower bound the semantics require: a timeout does not fire before its limit.
 */
@Timeout(60)
class TimeoutTest {
    private static final Duration LIMIT = Patience.scale(Duration.ofMillis(300));

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aDelayShorterThanTheLimitGivesItsValue(SchedulerKind kind) {
        kind.use(s -> {
            AtomicInteger after = new AtomicInteger();
            Job<Integer> job = Job.sleep(Duration.ofMillis(100)).then(Job.of(after::incrementAndGet));
            assertThat(s.run(job.timeout(LIMIT))).isEqualTo(1);
            assertThat(FiberFixtures.pendingTimers(s)).as("the limit's timer, removed with the loser").isZero();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aDelayLongerThanTheLimitTimesOutAndTheStepAfterItNeverRuns(SchedulerKind kind) {
        kind.use(s -> {
            AtomicInteger after = new AtomicInteger();
            AtomicInteger finalized = new AtomicInteger();
            Job<Integer> job = Job.sleep(Duration.ofMillis(500)).then(Job.of(after::incrementAndGet))
                    .ensure(TestJobs.increment(finalized));
            long start = System.nanoTime();
            Outcome<Integer> o = s.runOutcome(job.timeout(LIMIT));
            long elapsed = System.nanoTime() - start;
            assertTimedOut(o, LIMIT);
            assertThat(finalized).as("the timed-out job was cancelled and finalized before the result").hasValue(1);
            assertThat(FiberFixtures.pendingTimers(s)).as("the 500 ms sleep's timer was removed").isZero();
            assertThat(Duration.ofNanos(elapsed)).as("the timeout did not fire before its limit")
                    .isGreaterThanOrEqualTo(LIMIT);
            s.run(Job.sleep(Duration.ofMillis(250))); // past the delay's deadline: the step still never runs
            assertThat(after).hasValue(0);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aFailureOrCancellationBeforeTheLimitPassesThrough(SchedulerKind kind) {
        kind.use(s -> {
            IllegalStateException boom = new IllegalStateException("boom");
            assertThat(s.runOutcome(Job.<Integer>failure(boom).timeout(LIMIT))).isEqualTo(Outcome.failure(boom));
            assertThat(s.runOutcome(Job.<Integer>cancelled().timeout(LIMIT))).isEqualTo(Outcome.cancelled());
            assertThat(FiberFixtures.pendingTimers(s)).isZero();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aTimeoutCanBeRecoveredAndNestedTimeoutsReportTheInnerOne(SchedulerKind kind) {
        kind.use(s -> {
            Duration innerLimit = Duration.ofMillis(20);
            Job<String> inner = TestJobs.forever().map(v -> "never").timeout(innerLimit);
            Job<String> outer = inner.timeout(Duration.ofHours(1));
            Outcome<String> o = s.runOutcome(outer);
            assertTimedOut(o, innerLimit);
            assertThat(s.run(inner.recover(e -> e instanceof TimeoutException ? "fallback" : "other")))
                    .isEqualTo("fallback");
            assertThat(FiberFixtures.pendingTimers(s)).isZero();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingAFiberWaitingInATimeoutRemovesBothTimers(SchedulerKind kind) {
        kind.use(s -> {
            AtomicInteger finalized = new AtomicInteger();
            Job<Void> job = TestJobs.forever().ensure(TestJobs.increment(finalized)).timeout(Duration.ofHours(1));
            Fiber<Void> f = s.run(job.start());
            kind.awaitDriving(s, () -> FiberFixtures.pendingTimers(s) == 2, "the sleep and the limit to be armed");
            s.run(f.cancel());
            assertThat(s.run(f.outcome())).isEqualTo(Outcome.cancelled());
            assertThat(finalized).hasValue(1);
            assertThat(FiberFixtures.pendingTimers(s)).isZero();
        });
    }

    /**
     * On an alternative the limit is one more alternative: a take under a zero limit takes a message that
     * is there (the take comes first in the choose) and otherwise times out having taken nothing, leaving
     * no taker behind and no timer, in the caller's own fiber.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void anAlternativeUnderALimitEitherCommitsOrTakesNothing(SchedulerKind kind) {
        kind.use(s -> {
            Channel<Integer> ch = new Channel<>("limited");
            Job<Integer> take = ch.take().timeout(Duration.ZERO);
            int taken = s.run(ch.give(7).start().flatMap(giver -> Job.self().flatMap(self ->
                    Job.yieldNow().then(take.flatMap(v -> Job.self().map(after -> {
                        assertThat(after).as("the fiber that took").isSameAs(self);
                        return v;
                    }))))));
            assertThat(taken).isEqualTo(7);
            Outcome<Integer> none = s.runOutcome(take);
            assertTimedOut(none, Duration.ZERO);
            assertThat(ch.waitingTakers() + ch.waitingGivers()).isZero();
            assertThat(FiberFixtures.pendingTimers(s)).isZero();
        });
    }

    /**
     * An alternative with work outside its commit is raced, so the limit bounds all of it: a guard's set-up
     * job and an afterJob's job are cancelled when the limit runs out.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aGuardOrAnAfterJobIsBoundedWhole(SchedulerKind kind) {
        kind.use(s -> {
            Duration slow = Duration.ofSeconds(30);
            Alt<Integer> slowGuard = Alt.guard(Job.sleep(slow).then(Job.result(Alt.always(1))));
            Alt<Integer> slowAfter = Alt.always(2).afterJob(v -> Job.sleep(slow).then(Job.result(v)));
            for (Alt<Integer> alt : List.of(slowGuard, slowAfter)) {
                Outcome<Integer> o = s.runOutcome(alt.timeout(LIMIT));
                assertTimedOut(o, LIMIT);
            }
            assertThat(FiberFixtures.pendingTimers(s)).isZero();
        });
    }

    /** Asserts that {@code o} is the failure a timeout of {@code limit} gives. */
    private static void assertTimedOut(Outcome<?> o, Duration limit) {
        assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class,
                f -> assertThat(f.error()).isInstanceOf(TimeoutException.class)
                        .hasMessageContaining(limit.toString()));
    }
}
