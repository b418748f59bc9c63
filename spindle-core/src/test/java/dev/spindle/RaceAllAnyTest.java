package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.Patience;
import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code race}, {@code all} and {@code any} decide as documented, cancel the children that no longer
 * matter, and complete only after those children (and their finalizers) have finished. Winners are made
 * certain by construction (the other side waits until cancelled), never by comparing sleep lengths.
 */
@Timeout(60)
class RaceAllAnyTest {
    private static final Duration SHORT = Patience.scale(Duration.ofMillis(20));

    /**
     * Children that wait until cancelled, then (uncancelable) sleep a little and count their finalizer. A
     * child cancelled before it ever ran never enters its body, so nothing of it runs, its finalizer
     * included: tests that count finalizers let the deciding child wait until the losers have started.
     */
    private static final class Losers {
        final AtomicInteger started = new AtomicInteger();
        final AtomicInteger finalized = new AtomicInteger();
        private final Duration finalizerSleep;

        Losers() {
            this(SHORT);
        }

        Losers(Duration finalizerSleep) {
            this.finalizerSleep = finalizerSleep;
        }

        <A> Job<A> loser() {
            return Job.run(started::incrementAndGet).then(TestJobs.forever())
                    .ensure(Job.sleep(finalizerSleep).then(TestJobs.increment(finalized)))
                    .map(v -> null);
        }

        /** Waits until {@code n} losers have entered their bodies (in total). */
        Job<Void> started(int n) {
            return TestJobs.awaitTrue(() -> started.get() >= n);
        }
    }

    // ---------------------------------------------------------------- race

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void raceGivesLeftOrRightAndFinalizesTheLoserFirst(SchedulerKind kind) {
        kind.use(s -> {
            Losers l = new Losers();
            Job<Integer> left = Job.race(l.started(1).then(Job.result("L")), l.<Void>loser())
                    .flatMap(e -> Job.of(() -> {
                        assertThat(e).isEqualTo(new Either.Left<>("L"));
                        return l.finalized.get();
                    }));
            assertThat(s.run(left)).as("loser finalizers done when race completed").isEqualTo(1);
            Job<Integer> right = Job.race(l.<String>loser(), l.started(2).then(Job.result(7)))
                    .flatMap(e -> Job.of(() -> {
                        assertThat(e).isEqualTo(new Either.Right<>(7));
                        return l.finalized.get();
                    }));
            assertThat(s.run(right)).isEqualTo(2);
            assertThat(FiberFixtures.pendingTimers(s)).isZero();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aFailureOrCancellationWinsTheRaceToo(SchedulerKind kind) {
        kind.use(s -> {
            Losers l = new Losers();
            IllegalStateException boom = new IllegalStateException("boom");
            assertThat(s.runOutcome(Job.race(l.started(1).then(Job.<Integer>failure(boom)), l.<Integer>loser())))
                    .isEqualTo(Outcome.failure(boom));
            assertThat(l.finalized).hasValue(1);
            assertThat(s.runOutcome(Job.race(l.<Integer>loser(), l.started(2).then(Job.<Integer>cancelled()))))
                    .isEqualTo(Outcome.cancelled());
            assertThat(l.finalized).hasValue(2);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aLoserCancelledBeforeItRanRunsNothingAndTheRaceStillWaitsForIt(SchedulerKind kind) {
        kind.use(s -> {
            Losers l = new Losers(Duration.ofMillis(1));
            for (int i = 0; i < 50; i++) {
                assertThat(s.run(Job.race(Job.result(i), l.<Void>loser()))).isEqualTo(new Either.Left<>(i));
                assertThat(l.finalized).as("a loser's finalizer runs iff its body was entered")
                        .hasValue(l.started.get());
            }
            assertThat(FiberFixtures.pendingTimers(s)).isZero();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingTheRacingFiberCancelsBothSides(SchedulerKind kind) {
        kind.use(s -> {
            Losers l = new Losers();
            Fiber<Either<Integer, Integer>> f = s.run(Job.race(l.<Integer>loser(), l.<Integer>loser()).start());
            kind.awaitDriving(s, () -> l.started.get() == 2, "both sides to start");
            s.run(f.cancel());
            assertThat(l.finalized).as("both sides finalized when cancel() returned").hasValue(2);
            assertThat(s.run(f.outcome())).isEqualTo(Outcome.cancelled());
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aRaceLeavesNoChildLinkedToTheFiberThatRanIt(SchedulerKind kind) {
        kind.use(s -> {
            Losers l = new Losers(Duration.ZERO);
            Job<Void> manyRaces = Job.unit();
            for (int i = 1; i <= 100; i++) {
                manyRaces = manyRaces.then(Job.race(l.started(i).then(Job.result(i)), l.<Integer>loser()))
                        .then(Job.unit());
            }
            Fiber<Void> f = s.run(manyRaces.start());
            s.run(f.join());
            assertThat(l.finalized).hasValue(100);
            FiberFixtures.awaitChildrenLetGo(kind, s, f);
        });
    }

    // ---------------------------------------------------------------- all

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void allGivesValuesInInputOrder(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean lastDone = new AtomicBoolean();
            // the first child finishes last: it waits until the last one has finished
            List<Job<Integer>> jobs = new ArrayList<>();
            jobs.add(TestJobs.awaitTrue(lastDone::get).then(Job.result(0)));
            for (int i = 1; i < 20; i++) {
                jobs.add(Job.sleep(Duration.ofMillis(i % 3)).then(Job.result(i)));
            }
            jobs.add(Job.result(20).flatMap(v -> Job.run(() -> lastDone.set(true)).map(x -> v)));
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i <= 20; i++) {
                expected.add(i);
            }
            assertThat(s.run(Job.all(jobs))).containsExactlyElementsOf(expected);
            assertThat(s.run(Job.all(List.<Job<Integer>>of()))).isEmpty();
            assertThat(s.run(Job.all(List.of(Job.result(null), Job.result(1))))).containsExactly(null, 1);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void theFirstFailureCancelsTheOthersAndIsTheResultAfterTheyFinished(SchedulerKind kind) {
        kind.use(s -> {
            Losers l = new Losers();
            IllegalStateException first = new IllegalStateException("first");
            Job<Integer> failer = l.started(2).then(Job.failure(first));
            Job<Integer> job = Job.all(List.of(l.<Integer>loser(), failer, l.<Integer>loser(), Job.result(3)))
                    .map(List::size);
            Job<Integer> seen = job.recoverWith(e -> Job.of(() -> {
                assertThat(e).isSameAs(first);
                return l.finalized.get();
            }));
            assertThat(s.run(seen)).as("losers finalized when all failed").isEqualTo(2);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aCancelledChildCancelsTheWhole(SchedulerKind kind) {
        kind.use(s -> {
            Losers l = new Losers();
            AtomicInteger after = new AtomicInteger();
            Job<Integer> job = Job.all(List.of(l.<Integer>loser(), l.started(1).then(Job.<Integer>cancelled())))
                    .then(Job.of(after::incrementAndGet))
                    .recover(e -> -1);
            assertThat(s.runOutcome(job)).isEqualTo(Outcome.cancelled());
            assertThat(l.finalized).hasValue(1);
            assertThat(after).hasValue(0);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aJoinedCancelledFiberInsideAllIsAnOrdinaryFailure(SchedulerKind kind) {
        kind.use(s -> {
            Job<Integer> joinsACancelledFiber = Job.<Integer>cancelled().start().flatMap(Fiber::join);
            Outcome<List<Integer>> o = s.runOutcome(Job.all(List.of(Job.result(1), joinsACancelledFiber)));
            assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class,
                    f -> assertThat(f.error()).isInstanceOf(CancellationException.class));
        });
    }

    // ---------------------------------------------------------------- any

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void anyGivesTheFirstSuccessAndCancelsTheRest(SchedulerKind kind) {
        kind.use(s -> {
            Losers l = new Losers();
            IllegalStateException boom = new IllegalStateException("boom");
            Job<Integer> job = Job.any(List.of(l.<Integer>loser(), Job.<Integer>failure(boom),
                    l.started(2).then(Job.result(42)), l.<Integer>loser()));
            Job<List<Integer>> seen = job.flatMap(v -> Job.of(() -> List.of(v, l.finalized.get())));
            assertThat(s.run(seen)).as("value, losers finalized").containsExactly(42, 2);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void whenAllFailAnyFailsWithTheFirstAndSuppressesTheOthers(SchedulerKind kind) {
        kind.use(s -> {
            IllegalStateException a = new IllegalStateException("a");
            IllegalStateException b = new IllegalStateException("b");
            IllegalStateException c = new IllegalStateException("c");
            // a is first both in argument order and in time
            Outcome<Integer> o = s.runOutcome(Job.any(List.of(Job.<Integer>failure(a),
                    Job.sleep(SHORT).then(Job.<Integer>failure(b)),
                    Job.sleep(SHORT.multipliedBy(2)).then(Job.<Integer>failure(c)))));
            assertThat(o).isEqualTo(Outcome.failure(a));
            assertThat(a.getSuppressed()).containsExactly(b, c);
            assertThat(s.run(Job.any(List.of(Job.result("only"))))).isEqualTo("only");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aCancelledChildCancelsAny(SchedulerKind kind) {
        kind.use(s -> {
            Losers l = new Losers();
            assertThat(s.runOutcome(Job.any(List.of(l.<Integer>loser(), l.started(1).then(Job.<Integer>cancelled())))))
                    .isEqualTo(Outcome.cancelled());
            assertThat(l.finalized).hasValue(1);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void nestedCombinatorsCancelTheirWholeSubtree(SchedulerKind kind) {
        kind.use(s -> {
            Losers l = new Losers();
            Job<Integer> deep = Job.all(List.of(l.<Integer>loser(),
                    Job.any(List.of(l.<Integer>loser(), Job.race(l.loser(), l.loser()).map(e -> 0)))))
                    .map(List::size);
            Job<Integer> job = Job.race(l.started(4).then(Job.result(-1)), deep)
                    .flatMap(e -> Job.of(() -> {
                        assertThat(e).isEqualTo(new Either.Left<>(-1));
                        return l.finalized.get();
                    }));
            assertThat(s.run(job)).as("finalizers of the whole losing subtree").isEqualTo(4);
            assertThat(FiberFixtures.pendingTimers(s)).isZero();
        });
    }
}
