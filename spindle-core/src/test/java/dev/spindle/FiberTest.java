package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code start} gives a fiber whose {@code join}, {@code outcome} and {@code cancel} report and end it as documented. */
class FiberTest {
    @RegisterExtension
    final SchedulerExtension s = new SchedulerExtension(SchedulerKind.WORKERS_2);

    private final IllegalStateException boom = new IllegalStateException("boom");
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicInteger finalized = new AtomicInteger();

    @Test
    void joinGivesTheFibersValue() {
        int v = s.run(Job.of(() -> 42).start().flatMap(Fiber::join));
        assertThat(v).isEqualTo(42);
    }

    /** Starts {@code job} as a fiber and, once it has finished, runs {@code afterIt} on it. */
    private <B> Outcome<B> onceFinished(Job<Integer> job, Function<Fiber<Integer>, Job<B>> afterIt) {
        return s.outcome(job.start().flatMap(f -> TestJobs.awaitTrue(f::isDone).then(afterIt.apply(f))));
    }

    /**
     * A bind on the join of a fiber that has already succeeded applies its function without a continuation
     * object (Sequence.Bind); the value, the function's failures and the stack depth must be as for any bind.
     */
    @Test
    void bindingTheJoinOfAFinishedFiberPassesItsValueOn() {
        assertThat(onceFinished(Job.result(20), f -> f.join().flatMap(v -> f.join().map(w -> v + w + 2))))
                .isEqualTo(Outcome.success(42));
        assertThat(onceFinished(Job.result(1), f -> f.join().flatMap(v -> {
            throw boom;
        }))).isEqualTo(Outcome.failure(boom));
        assertThat(onceFinished(Job.failure(boom), f -> f.join().flatMap(v -> Job.result(v + 1))))
                .isEqualTo(Outcome.failure(boom));
    }

    /** The same for a map on such a join (Sequence.MapJob), and on its outcome (which takes the usual path). */
    @Test
    void mappingTheJoinOfAFinishedFiberPassesItsValueOn() {
        assertThat(onceFinished(Job.result(20), f -> f.join().map(v -> v + 22))).isEqualTo(Outcome.success(42));
        assertThat(onceFinished(Job.result(1), f -> f.join().map(v -> {
            throw boom;
        }))).isEqualTo(Outcome.failure(boom));
        assertThat(onceFinished(Job.failure(boom), f -> f.join().map(v -> v + 1))).isEqualTo(Outcome.failure(boom));
        assertThat(onceFinished(Job.result(5), f -> f.outcome().map(o -> o)))
                .isEqualTo(Outcome.success(Outcome.success(5)));
    }

    @Test
    void aMillionMapsOnTheJoinOfAFinishedFiberRunInBoundedStack() {
        Fiber<Integer> done = s.run(Job.result(1).start());
        s.run(TestJobs.awaitTrue(done::isDone));
        Job<Integer> job = Job.result(0);
        for (int i = 0; i < 1_000_000; i++) {
            job = job.flatMap(acc -> done.join().map(v -> acc + v));
        }
        assertThat(s.run(job)).isEqualTo(1_000_000);
    }

    @Test
    void aMillionBindsOnTheJoinOfAFinishedFiberRunInBoundedStack() {
        Fiber<Integer> done = s.run(Job.result(1).start());
        s.run(TestJobs.awaitTrue(done::isDone));
        assertThat(s.run(sumJoins(done, 1_000_000, 0))).isEqualTo(1_000_000L);
    }

    private static Job<Long> sumJoins(Fiber<Integer> done, int left, long sum) {
        return left == 0 ? Job.result(sum) : done.join().flatMap(v -> sumJoins(done, left - 1, sum + v));
    }

    @Test
    void bindingTheJoinOfAFinishedFiberOfAnotherSchedulerFails() {
        try (Scheduler other = Scheduler.create(1)) {
            Fiber<Integer> foreign = other.run(Job.result(1).start());
            other.run(foreign.join());
            Outcome<Integer> o = s.outcome(foreign.join().flatMap(v -> Job.result(v + 1)));
            assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("different scheduler"));
        }
    }

    @Test
    void joinFailsWithTheFibersFailure() {
        assertThat(s.outcome(Job.<Integer>failure(boom).start().flatMap(Fiber::join))).isEqualTo(Outcome.failure(boom));
    }

    @Test
    void outcomeGivesEachKindOfEnd() {
        Outcome<Integer> success = s.run(Job.result(1).start().flatMap(Fiber::outcome));
        Outcome<Integer> failure = s.run(Job.<Integer>failure(boom).start().flatMap(Fiber::outcome));
        Outcome<Integer> cancelled = s.run(Job.<Integer>cancelled().start().flatMap(Fiber::outcome));
        assertThat(success).isEqualTo(Outcome.success(1));
        assertThat(failure).isEqualTo(Outcome.failure(boom));
        assertThat(cancelled).isEqualTo(Outcome.cancelled());
    }

    @Test
    void aJoinedFiberCanFinishBeforeOrAfterTheJoin() {
        Job<Integer> late = Job.yieldNow().then(Job.yieldNow()).then(Job.result(1));
        Job<Integer> early = Job.result(2);
        Job<Integer> job = late.start().flatMap(a -> early.start().flatMap(b ->
                TestJobs.awaitTrue(b::isDone).then(a.join().flatMap(x -> b.join().map(y -> x + y)))));
        assertThat(s.run(job)).isEqualTo(3);
    }

    @Test
    void cancelEndsABlockedFiberAfterItsFinalizers() {
        Job<Outcome<Void>> job = TestJobs.signalThenForever(started).onCancel(TestJobs.increment(finalized)).start()
                .flatMap(f -> TestJobs.awaitTrue(started::get).then(f.cancel()).then(Job.of(() -> {
                    assertThat(f.isDone()).as("done when cancel() returns").isTrue();
                    assertThat(f.isCancelRequested()).isTrue();
                    return null;
                })).then(f.outcome()));
        assertThat(s.run(job)).isEqualTo(Outcome.cancelled());
        assertThat(finalized).hasValue(1);
    }

    @Test
    void cancelEndsAFiberThatNeverBlocks() {
        Job<Void> neverBlocks = Job.run(() -> started.set(true)).then(TestJobs.busyUntil(() -> false));
        assertThat(s.run(TestJobs.cancelOnceStarted(neverBlocks, started::get))).isEqualTo(Outcome.cancelled());
    }

    @Test
    void cancellingAFinishedFiberChangesNothing() {
        Job<Outcome<Integer>> job = Job.result(7).start()
                .flatMap(f -> f.join().then(f.cancel()).then(f.outcome()));
        assertThat(s.run(job)).isEqualTo(Outcome.success(7));
    }

    @Test
    void cancellingAChildDoesNotCancelItsParent() {
        Job<String> job = TestJobs.signalThenForever(started).start()
                .flatMap(f -> TestJobs.awaitTrue(started::get).then(f.cancel()))
                .then(Job.yieldNow())
                .then(Job.result("parent still running"));
        assertThat(s.run(job)).isEqualTo("parent still running");
    }

    @Test
    void cancellingAParentCancelsItsChildren() {
        AtomicBoolean childStarted = new AtomicBoolean();
        Job<Void> parent = TestJobs.signalThenForever(childStarted).onCancel(TestJobs.increment(finalized)).start()
                .then(TestJobs.signalThenForever(started));
        Outcome<Void> o = s.run(parent.start().flatMap(p ->
                TestJobs.awaitTrue(() -> started.get() && childStarted.get()).then(p.cancel()).then(p.outcome())));
        assertThat(o).isEqualTo(Outcome.cancelled());
        s.kind().awaitDriving(s.scheduler(), () -> finalized.get() == 1, "the child's onCancel finalizer");
    }

    @Test
    void aChildOutlivesItsFinishedParentAndCanBeJoined() {
        Job<Integer> job = Job.yieldNow().then(Job.result(5)).start().map(child -> child) // parent ends at once
                .start().flatMap(Fiber::join).flatMap(Fiber::join);
        assertThat(s.run(job)).isEqualTo(5);
    }

    @Test
    void joiningACancelledFiberFailsWithCancellationException() {
        Outcome<Void> o = s.outcome(TestJobs.signalThenForever(started).start()
                .flatMap(f -> TestJobs.awaitTrue(started::get).then(f.cancel()).then(f.join())));
        assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class,
                f -> assertThat(f.error()).isInstanceOf(CancellationException.class));
    }

    @Test
    void aJoinerWaitingForAFiberIsCancelledWithoutCancellingThatFiber() {
        AtomicBoolean joining = new AtomicBoolean();
        AtomicBoolean release = new AtomicBoolean();
        Job<Integer> target = TestJobs.awaitTrue(release::get).then(Job.result(9));
        Job<Integer> job = target.start().flatMap(t -> Job.run(() -> joining.set(true)).then(t.join()).start()
                .flatMap(joiner -> TestJobs.awaitTrue(joining::get)
                        .then(joiner.cancel())
                        .then(Job.run(() -> release.set(true)))
                        .then(joiner.outcome())
                        .flatMap(jo -> {
                            assertThat(jo).as("the joiner's outcome").isEqualTo(Outcome.cancelled());
                            return t.join();
                        })));
        assertThat(s.run(job)).isEqualTo(9);
    }
}
