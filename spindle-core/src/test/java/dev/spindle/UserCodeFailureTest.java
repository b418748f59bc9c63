package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An exception (or error) thrown by user code inside any combinator becomes a failure of that job and never
 * kills a worker: the scheduler keeps working afterwards.
 */
class UserCodeFailureTest {
    /** What user code throws; a fresh instance per case so identity checks are meaningful. */
    static final class Boom extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Boom() {
            super("thrown by user code");
        }
    }

    private static <A> A boom() {
        throw new Boom();
    }

    /** Each case is a job in which user code given to one combinator throws. */
    static Stream<Arguments> throwingUserCode() {
        return Stream.of(
                thrower("of", () -> Job.of(UserCodeFailureTest::boom)),
                thrower("run", () -> Job.run(UserCodeFailureTest::boom)),
                thrower("defer", () -> Job.defer(UserCodeFailureTest::boom)),
                thrower("map", () -> Job.result(1).map(x -> boom())),
                thrower("flatMap", () -> Job.result(1).flatMap(x -> boom())),
                thrower("then (second job throws)", () -> Job.unit().then(Job.of(UserCodeFailureTest::boom))),
                thrower("recover handler", () -> Job.failure(new IllegalStateException()).recover(e -> boom())),
                thrower("recoverWith handler", () -> Job.failure(new IllegalStateException()).recoverWith(e -> boom())),
                thrower("ensure finalizer", () -> Job.unit().ensure(Job.run(UserCodeFailureTest::boom))),
                thrower("uncancelable body", () -> Job.uncancelable(Job.of(UserCodeFailureTest::boom))),
                thrower("started child, joined", () -> Job.of(UserCodeFailureTest::boom).start().flatMap(Fiber::join)),
                thrower("after a sleep", () -> Job.sleep(java.time.Duration.ofMillis(1)).map(v -> boom())),
                thrower("after yieldNow", () -> Job.yieldNow().map(v -> boom())),
                thrower("an Error", () -> Job.of(() -> {
                    throw new StackOverflowError("pretend");
                })));
    }

    private static Arguments thrower(String where, Supplier<Job<?>> job) {
        return Arguments.of(where, job);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("throwingUserCode")
    void becomesAFailureOfTheJobAndTheSchedulerKeepsWorking(String where, Supplier<Job<?>> job) {
        SchedulerKind.WORKERS_2.use(s -> {
            Outcome<?> o = s.runOutcome(job.get());
            assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error())
                    .isInstanceOfAny(Boom.class, StackOverflowError.class));
            FiberFixtures.assertWorkersAlive(s);
            assertThat(s.run(Job.result("still working"))).isEqualTo("still working");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void manyFailingFibersAtOnceKillNoWorker(SchedulerKind kind) {
        kind.use(s -> {
            List<CompletableFuture<Object>> futures = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                Job<Object> failing = i % 2 == 0 ? Job.of(UserCodeFailureTest::boom) : Job.yieldNow().map(v -> boom());
                futures.add(s.submit(failing));
            }
            kind.awaitDriving(s, () -> futures.stream().allMatch(CompletableFuture::isDone), "1,000 failing fibers");
            assertThat(futures).allSatisfy(f -> assertThat(f).isCompletedExceptionally());
            FiberFixtures.assertWorkersAlive(s);
            assertThat(s.run(Job.result(1))).isEqualTo(1);
        });
    }
}
