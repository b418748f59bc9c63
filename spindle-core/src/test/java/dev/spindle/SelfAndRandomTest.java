package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.random.RandomGenerator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Job#self()} gives the running fiber's handle; {@link Job#random()} one generator per fiber. */
class SelfAndRandomTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void selfIsTheHandleThatStartGives(SchedulerKind kind) {
        kind.use(s -> {
            Job<Boolean> same = Job.self().start().flatMap(f -> f.join().map(inner -> inner == f));
            assertThat((boolean) s.run(same)).isTrue();
            Job<Boolean> direct = Job.direct(() -> Job.self().await() == Job.self().await());
            assertThat((boolean) s.run(direct)).isTrue();
            assertThat((boolean) s.run(Job.self().flatMap(a -> Job.self().start().flatMap(Fiber::join)
                    .map(child -> child != a)))).as("a child is another fiber").isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void anotherFiberCancelsAFiberThroughItsSelfHandle(SchedulerKind kind) {
        kind.use(s -> {
            IVar<Fiber<?>> published = new IVar<>();
            AtomicBoolean finalized = new AtomicBoolean();
            Job<Void> victim = Job.self().flatMap(published::fill).then(TestJobs.forever())
                    .onCancel(Job.run(() -> finalized.set(true)));
            Job<Outcome<Void>> job = victim.start().flatMap(v -> published.read()
                    .flatMap(Fiber::cancel).then(v.outcome()));
            assertThat(s.run(job)).isEqualTo(Outcome.cancelled());
            assertThat(finalized).isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aFiberHasOneGeneratorAndEachFiberItsOwn(SchedulerKind kind) {
        kind.use(s -> {
            Job<List<RandomGenerator>> job = Job.random().flatMap(a -> Job.yieldNow().then(Job.random())
                    .flatMap(b -> Job.random().start().flatMap(Fiber::join).map(c -> List.of(a, b, c))));
            List<RandomGenerator> gens = s.run(job);
            assertThat(gens.get(0)).isSameAs(gens.get(1));
            assertThat(gens.get(2)).isNotSameAs(gens.get(0));
            Job<RandomGenerator> inDirect = Job.direct(() -> Job.random().await());
            assertThat(s.run(inDirect)).isNotNull();
        });
    }
}
