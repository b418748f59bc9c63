package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Jobs are lazy: building one runs nothing, and running one twice runs its effects twice. */
class LazinessTest {
    @RegisterExtension
    final SchedulerExtension s = new SchedulerExtension(SchedulerKind.WORKERS_2);

    /** Each case builds a job around an effect; the effect must run once per run of the job, never at build time. */
    static Stream<Arguments> jobs() {
        return Stream.of(
                build("of", e -> Job.of(e::incrementAndGet)),
                build("run", e -> Job.run(e::incrementAndGet)),
                build("defer", e -> Job.defer(() -> Job.result(e.incrementAndGet()))),
                build("map", e -> Job.unit().map(v -> e.incrementAndGet())),
                build("flatMap", e -> Job.unit().flatMap(v -> Job.result(e.incrementAndGet()))),
                build("then", e -> Job.unit().then(Job.run(e::incrementAndGet))),
                build("recover", e -> Job.failure(new RuntimeException()).recover(x -> e.incrementAndGet())),
                build("recoverWith", e -> Job.failure(new RuntimeException())
                        .recoverWith(x -> Job.result(e.incrementAndGet()))),
                build("attempt", e -> Job.run(e::incrementAndGet).attempt()),
                build("ensure", e -> Job.unit().ensure(Job.run(e::incrementAndGet))),
                build("uncancelable", e -> Job.uncancelable(Job.run(e::incrementAndGet))),
                build("sleep then", e -> Job.sleep(Duration.ofMillis(1)).then(Job.run(e::incrementAndGet))),
                build("yieldNow then", e -> Job.yieldNow().then(Job.run(e::incrementAndGet))),
                build("start join", e -> Job.run(e::incrementAndGet).start().flatMap(Fiber::join)),
                build("forget", e -> Job.run(e::incrementAndGet).forget()));
    }

    private static Arguments build(String name, Function<AtomicInteger, Job<?>> factory) {
        return Arguments.of(name, factory);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jobs")
    void buildingRunsNothingAndEachRunRunsAgain(String name, Function<AtomicInteger, Job<?>> factory) {
        AtomicInteger effects = new AtomicInteger();
        Job<?> job = factory.apply(effects);
        assertThat(effects).as("effects after building %s", name).hasValue(0);

        s.run(job);
        s.run(job);
        // forget's fiber may still be running when run returns: wait for it
        s.kind().awaitDriving(s.scheduler(), () -> effects.get() >= 2, "the effects of running " + name + " twice");
        assertThat(effects).as("effects after running %s twice", name).hasValue(2);
    }
}
