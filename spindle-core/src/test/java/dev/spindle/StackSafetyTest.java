package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Chains, loops and recursions of any length run in bounded Java stack: no {@link StackOverflowError}
 * (which would surface as a failure of the job, since the worker loop catches it).
 */
class StackSafetyTest {
    private static final int TEN_MILLION = 10_000_000;
    private static final int MILLION = 1_000_000;
    /** Layers per combinator: a thousand times the fuel, far more than a thread's stack could hold. */
    private static final int LAYERS = 200_000;

    private static Job<Integer> countTo(int n, int i) {
        return i == n ? Job.result(i) : Job.result(i + 1).flatMap(x -> countTo(n, x));
    }

    @Test
    void aFlatMapLoopOfTenMillionSteps() {
        SchedulerKind.WORKERS_1.use(s -> assertThat(s.runOutcome(countTo(TEN_MILLION, 0))).isEqualTo(Outcome.success(TEN_MILLION)));
    }

    @Test
    void aMillionLeftNestedFlatMaps() {
        Job<Integer> job = Job.result(0);
        for (int i = 0; i < MILLION; i++) {
            job = job.flatMap(x -> Job.result(x + 1));
        }
        Job<Integer> nested = job;
        SchedulerKind.SINGLE_THREADED.use(s -> assertThat(s.runOutcome(nested)).isEqualTo(Outcome.success(MILLION)));
    }

    /** Each case wraps a job in one more layer of a combinator; the layer adds one to the value. */
    static Stream<Arguments> layers() {
        Job<Void> noop = Job.unit();
        return Stream.of(
                layer("map", j -> j.map(x -> x + 1)),
                layer("flatMap", j -> j.flatMap(x -> Job.result(x + 1))),
                layer("then", j -> j.flatMap(x -> Job.unit().then(Job.result(x + 1)))),
                layer("recover", j -> j.recover(e -> -1).map(x -> x + 1)),
                layer("recoverWith", j -> j.recoverWith(Job::failure).map(x -> x + 1)),
                layer("attempt", j -> j.attempt().map(o -> o.getOrThrow() + 1)),
                layer("ensure", j -> j.ensure(noop).map(x -> x + 1)),
                layer("onCancel", j -> j.onCancel(noop).map(x -> x + 1)),
                layer("uncancelable", j -> Job.uncancelable(j).map(x -> x + 1)),
                layer("defer", j -> Job.defer(() -> j).map(x -> x + 1)));
    }

    private static Arguments layer(String name, UnaryOperator<Job<Integer>> wrap) {
        return Arguments.of(name, wrap);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layers")
    void manyNestedLayersOfEachCombinator(String name, UnaryOperator<Job<Integer>> wrap) {
        Job<Integer> job = Job.result(0);
        for (int i = 0; i < LAYERS; i++) {
            job = wrap.apply(job);
        }
        Job<Integer> nested = job;
        SchedulerKind.WORKERS_1.use(s -> assertThat(s.runOutcome(nested)).isEqualTo(Outcome.success(LAYERS)));
    }

    /** Each case wraps a job in one more layer that keeps its value, with no other step in between. */
    static Stream<Arguments> bareLayers() {
        Job<Void> noop = Job.unit();
        return Stream.of(
                layer("uncancelable", Job::uncancelable),
                layer("ensure", j -> j.ensure(noop)),
                layer("onCancel", j -> j.onCancel(noop)),
                layer("recover", j -> j.recover(e -> -1)),
                layer("recoverWith", j -> j.recoverWith(Job::failure)),
                layer("defer", j -> Job.defer(() -> j)),
                layer("then (right-nested)", j -> Job.unit().then(j)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bareLayers")
    void manyDirectlyNestedLayersOfEachCombinator(String name, UnaryOperator<Job<Integer>> wrap) {
        Job<Integer> job = Job.result(7);
        for (int i = 0; i < LAYERS; i++) {
            job = wrap.apply(job);
        }
        Job<Integer> nested = job;
        SchedulerKind.WORKERS_1.use(s -> assertThat(s.runOutcome(nested)).isEqualTo(Outcome.success(7)));
    }

    private static Job<Integer> recurse(int n, AtomicInteger finalized, Job<Integer> bottom) {
        if (n == 0) {
            return bottom;
        }
        return Job.defer(() -> recurse(n - 1, finalized, bottom))
                .map(x -> x + 1)
                .recover(e -> {
                    throw e instanceof RuntimeException r ? r : new RuntimeException(e);
                })
                .ensure(TestJobs.increment(finalized));
    }

    @Test
    void aMillionDeepRecursionThroughRecoverAndEnsure() {
        AtomicInteger finalized = new AtomicInteger();
        SchedulerKind.WORKERS_1.use(s -> {
            assertThat(s.runOutcome(recurse(MILLION, finalized, Job.result(0)))).isEqualTo(Outcome.success(MILLION));
            assertThat(finalized).hasValue(MILLION);
        });
    }

    @Test
    void aFailurePropagatesThroughAMillionNestedFinalizersAndHandlers() {
        IllegalStateException boom = new IllegalStateException("bottom");
        AtomicInteger finalized = new AtomicInteger();
        SchedulerKind.SINGLE_THREADED.use(s -> {
            assertThat(s.runOutcome(recurse(MILLION, finalized, Job.failure(boom)))).isEqualTo(Outcome.failure(boom));
            assertThat(finalized).hasValue(MILLION);
        });
    }

    @Test
    void aFailurePropagatesThroughAMillionLeftNestedContinuations() {
        IllegalStateException boom = new IllegalStateException("first");
        AtomicInteger skipped = new AtomicInteger();
        Job<Integer> job = Job.failure(boom);
        for (int i = 0; i < MILLION; i++) {
            job = i % 2 == 0 ? job.flatMap(x -> Job.result(skipped.incrementAndGet())) : job.map(x -> x + 1);
        }
        Job<Integer> nested = job;
        SchedulerKind.WORKERS_1.use(s -> assertThat(s.runOutcome(nested)).isEqualTo(Outcome.failure(boom)));
        assertThat(skipped).hasValue(0);
    }

    private static Job<Integer> nestedFibers(int n) {
        return n == 0 ? Job.result(0)
                : Job.defer(() -> nestedFibers(n - 1)).start().flatMap(Fiber::join).map(x -> x + 1);
    }

    /** Starts {@code n - started} children that end inside their start, one after another; gives n. */
    static Job<Integer> startInLoop(int n, int started) {
        return started == n ? Job.result(n) : Job.result(0).start().flatMap(child -> startInLoop(n, started + 1));
    }

    @Test
    void aMillionChildrenStartedInALoopEachEndingInsideItsStart() {
        // the starter continues on the same stack after each child: its steps spend the item's fuel
        SchedulerKind.WORKERS_1.use(s -> assertThat(s.runOutcome(startInLoop(MILLION, 0))).isEqualTo(Outcome.success(MILLION)));
    }

    @Test
    void aHundredThousandFibersEachStartingAndJoiningTheNext() {
        SchedulerKind.SINGLE_THREADED.use(s -> assertThat(s.runOutcome(nestedFibers(100_000))).isEqualTo(Outcome.success(100_000)));
    }
}
