package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code sleep} resumes no earlier than asked, {@code now} never goes backwards, and {@code yieldNow} lets queued work run first. */
class TimeAndYieldTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void sleepResumesNoEarlierThanItsDurationByTheSchedulersClock(SchedulerKind kind) {
        Duration d = Duration.ofMillis(20);
        kind.use(s -> {
            List<Instant> times = s.run(Job.now().flatMap(before -> Job.sleep(d).then(Job.now())
                    .map(after -> List.of(before, after))));
            assertThat(Duration.between(times.get(0), times.get(1))).isGreaterThanOrEqualTo(d);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void sleepOfZeroAndOfANanosecondComplete(SchedulerKind kind) {
        kind.use(s -> {
            assertThat(s.run(Job.sleep(Duration.ZERO).then(Job.result("zero")))).isEqualTo("zero");
            assertThat(s.run(Job.sleep(Duration.ofNanos(1)).then(Job.result("one")))).isEqualTo("one");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void nowNeverGoesBackwards(SchedulerKind kind) {
        kind.use(s -> {
            List<Instant> seen = new CopyOnWriteArrayList<>();
            Job<Void> record = Job.now().map(seen::add).then(Job.unit());
            Job<Void> job = Job.unit();
            for (int i = 0; i < 100; i++) {
                job = job.then(record).then(i % 10 == 0 ? Job.sleep(Duration.ofNanos(1)) : Job.yieldNow());
            }
            Instant before = s.now();
            s.run(job);
            Instant after = s.now();
            assertThat(seen).hasSize(100).isSorted();
            assertThat(seen.get(0)).isAfterOrEqualTo(before);
            assertThat(seen.get(99)).isBeforeOrEqualTo(after);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void yieldNowLetsReadyWorkRunBeforeItContinues(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean childRan = new AtomicBoolean();
            Job<Boolean> job = Job.run(() -> childRan.set(true)).start()
                    .then(Job.yieldNow())
                    .then(Job.of(childRan::get));
            assertThat(s.run(job)).as("the child ran before the parent resumed after yieldNow").isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void fibersThatYieldTakeTurns(SchedulerKind kind) {
        kind.use(s -> {
            List<String> order = new CopyOnWriteArrayList<>();
            Job<Void> both = yieldingLoop("a", 5, order).start().then(yieldingLoop("b", 5, order).start())
                    .then(TestJobs.awaitTrue(() -> order.size() == 10));
            s.run(both);
            for (int i = 1; i < order.size(); i++) {
                assertThat(order.get(i)).as("turn %d of %s", i, order).isNotEqualTo(order.get(i - 1));
            }
        });
    }

    private static Job<Void> yieldingLoop(String name, int times, List<String> order) {
        return times == 0 ? Job.unit()
                : Job.run(() -> order.add(name)).then(Job.yieldNow()).then(Job.defer(() -> yieldingLoop(name, times - 1, order)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void yieldNowContinuesWithNull(SchedulerKind kind) {
        kind.use(s -> assertThat(s.runOutcome(Job.yieldNow())).isEqualTo(Outcome.success(null)));
    }
}
