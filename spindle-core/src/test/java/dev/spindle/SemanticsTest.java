package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.fixture.Patience;
import dev.spindle.test.fixture.SchedulerKind;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The acceptance criteria: one test (at least) per rule of docs/semantics.md that concerns jobs, fibers and cancellation (channels, {@code choose} and {@code withNack} are
 * tested with the communication layer). Each test names its rule.
 */
@Timeout(60)
class SemanticsTest {
    private static final Duration SHORT = Patience.scale(Duration.ofMillis(20));

    @RegisterExtension
    final SchedulerExtension s = new SchedulerExtension(SchedulerKind.WORKERS_2);

    private final AtomicInteger counter = new AtomicInteger();
    private final AtomicBoolean started = new AtomicBoolean();

    // ---------------------------------------------------------------- laziness

    @Test
    void laziness_buildingAJobRunsNothingAndRunningItTwiceRunsItTwice() {
        Job<Integer> body = Job.of(counter::incrementAndGet);
        Job<Integer> composed = body.flatMap(x -> body.map(y -> x * 10 + y));
        Job<Either<Integer, Void>> raced = Job.race(body, Job.unit().then(TestJobs.forever()));
        Job<Fiber<Integer>> starter = body.start();
        Job<Integer> timed = body.timeout(Duration.ofHours(1));
        assertThat(counter).as("after building jobs").hasValue(0);
        assertThat(s.run(composed)).isEqualTo(12);
        assertThat(s.run(composed)).isEqualTo(34);
        assertThat(s.run(raced)).isEqualTo(new Either.Left<>(5));
        Job<Integer> startAndJoin = starter.flatMap(Fiber::join);
        assertThat(s.run(startAndJoin)).isEqualTo(6);
        assertThat(s.run(startAndJoin)).isEqualTo(7);
        assertThat(s.run(timed)).isEqualTo(8);
        assertThat(counter).as("each run ran the body again").hasValue(8);
    }

    // ---------------------------------------------------------------- outcomes

    @Test
    void outcomes_exactlyOneOfSuccessFailureCancelled() {
        IllegalStateException boom = new IllegalStateException("boom");
        assertThat(s.outcome(Job.result(1))).isEqualTo(Outcome.success(1));
        assertThat(s.outcome(Job.result(null))).isEqualTo(Outcome.success(null));
        assertThat(s.outcome(Job.failure(boom))).isEqualTo(Outcome.failure(boom));
        assertThat(s.outcome(Job.cancelled())).isEqualTo(Outcome.cancelled());
        assertThat(s.outcome(Job.result(1).attempt())).isEqualTo(Outcome.success(Outcome.success(1)));
        assertThat(s.outcome(Job.failure(boom).attempt())).isEqualTo(Outcome.success(Outcome.failure(boom)));
        assertThat(s.outcome(Job.cancelled().attempt()))
                .as("attempt does not turn cancellation into a value").isEqualTo(Outcome.cancelled());
        assertThat(s.outcome(Job.cancelled().recover(e -> 1)))
                .as("recover does not resurrect a cancelled job").isEqualTo(Outcome.cancelled());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void outcomes_userExceptionsBecomeFailuresAndNeverKillAWorker(SchedulerKind kind) {
        kind.use(sch -> {
            List<Job<Integer>> throwers = List.of(
                    Job.of(() -> {
                        throw new IllegalStateException("of");
                    }),
                    Job.result(1).map(x -> {
                        throw new IllegalStateException("map");
                    }),
                    Job.result(1).flatMap(x -> {
                        throw new IllegalStateException("flatMap");
                    }),
                    Job.result(1).ensure(Job.run(() -> {
                        throw new IllegalStateException("finalizer");
                    })),
                    Job.<Integer>failure(new IOException("x")).recover(e -> {
                        throw new IllegalStateException("handler");
                    }),
                    Job.of(() -> {
                        throw new AssertionError("an Error");
                    }),
                    Job.race(Job.<Integer>of(() -> {
                        throw new IllegalStateException("race child");
                    }), TestJobs.forever()).map(e -> 0),
                    Job.all(List.of(Job.result(1), Job.of(() -> {
                        throw new IllegalStateException("all child");
                    }))).map(List::size));
            for (int round = 0; round < 200; round++) {
                for (Job<Integer> t : throwers) {
                    assertThat(sch.runOutcome(t)).isInstanceOf(Outcome.Failure.class);
                }
            }
            FiberFixtures.assertWorkersAlive(sch);
            assertThat(sch.run(Job.result("still working"))).isEqualTo("still working");
        });
    }

    @Test
    void outcomes_aFailureNobodyObservesGoesToTheUncaughtHandler() {
        IllegalStateException boom = new IllegalStateException("forgotten");
        s.run(Job.<Void>failure(boom).forget());
        s.kind().awaitDriving(s.scheduler(), () -> !s.uncaught().failures().isEmpty(), "the uncaught handler");
        s.uncaught().assertExactly(boom);
    }

    // ---------------------------------------------------------------- cancellation

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellation_observedAtEveryBindStep(SchedulerKind kind) {
        kind.use(sch -> {
            AtomicInteger steps = new AtomicInteger();
            AtomicBoolean looping = new AtomicBoolean();
            Job<Void> loop = Job.run(() -> looping.set(true)).then(TestJobs.busyUntil(() -> {
                steps.incrementAndGet();
                return false; // binds forever: only cancellation ends it
            }));
            Outcome<Void> o = sch.run(loop.start().flatMap(f -> TestJobs.awaitTrue(looping::get)
                    .then(f.cancel()).then(f.outcome())));
            int afterCancel = steps.get();
            assertThat(o).isEqualTo(Outcome.cancelled());
            sch.run(Job.sleep(Duration.ofMillis(5)));
            assertThat(steps.get()).as("steps after cancel() returned").isEqualTo(afterCancel);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellation_aSleeperWakesPromptlyAndLeavesNoTimer(SchedulerKind kind) {
        kind.use(sch -> {
            Job<Outcome<Void>> job = TestJobs.signalThenForever(started).start()
                    .flatMap(f -> TestJobs.awaitTrue(() -> started.get() && FiberFixtures.pendingTimers(sch) == 1)
                            .then(f.cancel())
                            .then(Job.of(() -> {
                                assertThat(FiberFixtures.pendingTimers(sch)).as("timers after cancel()").isZero();
                                return null;
                            }))
                            .then(f.outcome()));
            assertThat(sch.run(job)).isEqualTo(Outcome.cancelled());
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellation_aJoinerWakesPromptlyAndLeavesNoWaiter(SchedulerKind kind) {
        kind.use(sch -> {
            AtomicBoolean release = new AtomicBoolean();
            Fiber<Integer> target = sch.run(TestJobs.awaitTrue(release::get).then(Job.result(3)).start());
            Fiber<Integer> joiner = sch.run(target.join().start());
            kind.awaitDriving(sch, () -> FiberFixtures.joinerCount(target) == 1, "the joiner to wait");
            sch.run(joiner.cancel());
            assertThat(joiner.isDone()).isTrue();
            assertThat(FiberFixtures.joinerCount(target)).as("joiners left at the target").isZero();
            assertThat(target.isDone()).as("the joined fiber is not cancelled with its joiner").isFalse();
            release.set(true);
            assertThat(sch.run(target.join())).isEqualTo(3);
            assertThat(sch.run(joiner.outcome())).isEqualTo(Outcome.cancelled());
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellation_finalizersRunExactlyOnceOnEveryOutcomeInnermostFirst(SchedulerKind kind) {
        kind.use(sch -> {
            IllegalStateException boom = new IllegalStateException("boom");
            List<Job<Integer>> bodies = List.of(
                    Job.result(1),
                    Job.failure(boom),
                    Job.cancelled(),
                    Job.run(() -> started.set(true)).then(TestJobs.forever()).map(v -> 1)); // cancelled from outside
            for (Job<Integer> body : bodies) {
                started.set(false);
                List<String> order = new CopyOnWriteArrayList<>();
                Job<Integer> job = body
                        .ensure(Job.run(() -> order.add("inner")))
                        .ensure(Job.run(() -> order.add("middle")))
                        .ensure(Job.run(() -> order.add("outer")));
                sch.run(job.start().flatMap(f -> TestJobs.awaitTrue(() -> f.isDone() || started.get())
                        .then(f.cancel())));
                assertThat(order).as("finalizers of %s", body).containsExactly("inner", "middle", "outer");
            }
        });
    }

    /**
     * A take that commits as its fiber's cancellation arrives (the wrap requests it, so the window is hit
     * every time): the wrap ran and the message left the channel, the step after it did not run, and the
     * fiber ends cancelled.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellation_aValueCommittedAsTheCancellationArrivesIsDroppedByTheNextStep(SchedulerKind kind) {
        kind.use(sch -> {
            Channel<Integer> ch = new Channel<>("committed");
            List<Integer> wrapped = new CopyOnWriteArrayList<>();
            Job<Void> taker = TestJobs.cancelledAtCommit(ch.take().wrap(v -> {
                wrapped.add(v);
                return v;
            })).flatMap(v -> Job.run(() -> started.set(true)));
            Outcome<Void> o = sch.run(taker.start().flatMap(f -> ch.give(7).then(f.outcome())));
            assertThat(o).isEqualTo(Outcome.cancelled());
            assertThat(wrapped).as("the wrap of the committed take").containsExactly(7);
            assertThat(started).as("the step after the take").isFalse();
            assertThat(ch.waitingGivers() + ch.waitingTakers()).isZero();
        });
    }

    /**
     * The same window under a bracket: use is not called, and the resource the take committed to is
     * released; a bracket whose use runs releases after it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void bracket_aResourceAcquiredIsReleasedOnceEvenWhenCancelledBeforeUse(SchedulerKind kind) {
        kind.use(sch -> {
            Channel<Integer> ch = new Channel<>("resources");
            List<String> log = new CopyOnWriteArrayList<>();
            Function<Integer, Job<Integer>> use = v -> Job.run(() -> log.add("use " + v)).then(Job.result(v));
            Function<Integer, Job<Void>> release = v -> Job.run(() -> log.add("release " + v));
            Job<Integer> taker = Job.bracket(TestJobs.cancelledAtCommit(ch.take()), use, release);
            Outcome<Integer> o = sch.run(taker.start().flatMap(f -> ch.give(7).then(f.outcome())));
            assertThat(o).isEqualTo(Outcome.cancelled());
            assertThat(log).containsExactly("release 7");
            Job<Integer> used = Job.bracket(Job.result(8), use, release);
            assertThat(sch.run(used)).isEqualTo(8);
            assertThat(log).containsExactly("release 7", "use 8", "release 8");
        });
    }

    @Test
    void cancellation_cancellingAChildNeverCancelsItsParent() {
        Job<String> parent = TestJobs.signalThenForever(started).start()
                .flatMap(child -> TestJobs.awaitTrue(started::get).then(child.cancel()).then(child.outcome()))
                .flatMap(o -> Job.sleep(Duration.ofMillis(1)).then(Job.result("parent ran on after " + o)));
        Fiber<String> p = s.run(parent.start());
        assertThat(s.run(p.join())).isEqualTo("parent ran on after " + Outcome.cancelled());
        assertThat(p.isCancelRequested()).isFalse();
    }

    // ---------------------------------------------------------------- race, all, timeout

    @Test
    void race_firstOutcomeDecidesAndTheLoserIsFinalizedBeforeRaceCompletes() {
        AtomicBoolean loserFinalized = new AtomicBoolean();
        Job<Void> loser = TestJobs.forever()
                .ensure(Job.sleep(SHORT).then(Job.run(() -> loserFinalized.set(true))));
        Job<Boolean> job = Job.race(Job.sleep(SHORT).then(Job.result("winner")), loser)
                .flatMap(e -> Job.of(() -> {
                    assertThat(e).isEqualTo(new Either.Left<>("winner"));
                    return loserFinalized.get();
                }));
        assertThat(s.run(job)).as("the loser's (slow) finalizer had finished when race completed").isTrue();
        assertThat(FiberFixtures.pendingTimers(s.scheduler())).isZero();
    }

    @Test
    void race_aFailureOrCancellationAlsoDecides() {
        IllegalStateException boom = new IllegalStateException("boom");
        assertThat(s.outcome(Job.race(Job.failure(boom), TestJobs.forever()))).isEqualTo(Outcome.failure(boom));
        assertThat(s.outcome(Job.race(TestJobs.forever(), Job.cancelled()))).isEqualTo(Outcome.cancelled());
    }

    @Test
    void all_valuesInInputOrderFirstFailureCancelsTheOthersCancelledChildCancelsTheWhole() {
        List<Job<String>> jobs = List.of(Job.sleep(SHORT.multipliedBy(3)).then(Job.result("a")),
                Job.sleep(SHORT).then(Job.result("b")), Job.result("c"));
        assertThat(s.run(Job.all(jobs))).containsExactly("a", "b", "c");

        IllegalStateException boom = new IllegalStateException("boom");
        AtomicInteger cancelled = new AtomicInteger();
        Job<String> slow = TestJobs.forever().onCancel(TestJobs.increment(cancelled)).map(v -> "never");
        assertThat(s.outcome(Job.all(List.of(slow, Job.sleep(SHORT).then(Job.<String>failure(boom)), slow))))
                .isEqualTo(Outcome.failure(boom));
        assertThat(cancelled).as("the other children were cancelled, and finished, first").hasValue(2);

        assertThat(s.outcome(Job.all(List.of(slow, Job.<String>cancelled())))).isEqualTo(Outcome.cancelled());
        assertThat(s.run(Job.all(List.<Job<String>>of()))).isEmpty();
    }

    @Test
    void timeout_whenTheSleepWinsTheJobIsCancelledAndTheCallerSeesTimeoutException() {
        AtomicInteger afterDelay = new AtomicInteger();
        AtomicInteger finalized = new AtomicInteger();
        Job<Integer> slow = Job.sleep(Duration.ofHours(1)).then(Job.of(afterDelay::incrementAndGet))
                .ensure(TestJobs.increment(finalized));
        Outcome<Integer> o = s.outcome(slow.timeout(SHORT));
        assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class,
                f -> assertThat(f.error()).isInstanceOf(TimeoutException.class));
        assertThat(afterDelay).hasValue(0);
        assertThat(finalized).as("the timed-out job's finalizer ran before the result").hasValue(1);
        assertThat(FiberFixtures.pendingTimers(s.scheduler())).isZero();
        assertThat(s.run(Job.result(4).timeout(Duration.ofHours(1)))).isEqualTo(4);
    }

    // ---------------------------------------------------------------- blocking run

    @Test
    void blockingRun_returnsTheValueRethrowsTheFailureOrThrowsCancellationException() {
        Scheduler sch = s.scheduler();
        assertThat(sch.run(Job.result("v"))).isEqualTo("v");
        IllegalStateException unchecked = new IllegalStateException("unchecked");
        assertThatThrownBy(() -> sch.run(Job.failure(unchecked))).isSameAs(unchecked);
        AssertionError error = new AssertionError("error");
        assertThatThrownBy(() -> sch.run(Job.failure(error))).isSameAs(error);
        IOException checked = new IOException("checked");
        assertThatThrownBy(() -> sch.run(Job.failure(checked)))
                .isInstanceOf(CompletionException.class).hasCause(checked);
        assertThatThrownBy(() -> sch.run(Job.cancelled())).isInstanceOf(CancellationException.class);
        assertThatThrownBy(() -> sch.run(TestJobs.forever().timeout(SHORT)))
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(TimeoutException.class);
    }

    // ---------------------------------------------------------------- bad input

    @Test
    void badInput_failsAtOnceNamingTheProblemAndDisturbsNothing() {
        Job<Integer> one = Job.result(1);
        assertThatThrownBy(() -> Job.race(null, one)).isInstanceOf(NullPointerException.class).hasMessage("a");
        assertThatThrownBy(() -> Job.race(one, null)).isInstanceOf(NullPointerException.class).hasMessage("b");
        assertThatThrownBy(() -> Job.all(null)).isInstanceOf(NullPointerException.class).hasMessage("jobs");
        assertThatThrownBy(() -> Job.all(java.util.Arrays.asList(one, null)))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("jobs[1]");
        assertThatThrownBy(() -> Job.any(null)).isInstanceOf(NullPointerException.class).hasMessage("jobs");
        assertThatThrownBy(() -> Job.any(java.util.Arrays.asList(null, one)))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("jobs[0]");
        assertThatThrownBy(() -> Job.any(List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one");
        assertThatThrownBy(() -> Job.fromFuture(null)).isInstanceOf(NullPointerException.class).hasMessage("stage");
        assertThatThrownBy(() -> Job.blocking(null)).isInstanceOf(NullPointerException.class).hasMessage("body");
        assertThatThrownBy(() -> one.timeout(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("duration");
        assertThatThrownBy(() -> one.timeout(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> Job.sleep(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> Scheduler.create(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("worker count");

        Scheduler closed = Scheduler.create(1);
        closed.close();
        assertThatThrownBy(() -> closed.run(one)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");

        try (Scheduler other = Scheduler.create(1)) {
            Fiber<Integer> foreign = other.run(one.start());
            assertThatThrownBy(() -> s.run(foreign.join())).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("different scheduler");
            assertThat(other.run(foreign.join())).isEqualTo(1);
        }
        assertThat(s.run(Job.result("undisturbed"))).isEqualTo("undisturbed");
    }
}
