package dev.spindle;

import static dev.spindle.CommJobs.poll;
import static dev.spindle.CommJobs.repeat;
import static dev.spindle.CommJobs.until;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** MVar: fill, take, read, modify; waiting takers and readers; misuse. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MVarTest {

    /** fill then take empties it; read does not; filling a full MVar fails naming it. */
    @Test
    void basics() throws Exception {
        SchedulerKind.SINGLE_THREADED.use(s -> {
            MVar<Integer> m = new MVar<>("slot");
            s.run(m.fill(1));
            assertThat(s.run(m.read())).isEqualTo(1);
            assertThatThrownBy(() -> s.run(m.fill(2))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("slot").hasMessageContaining("already full");
            assertThat(s.run(m.take())).isEqualTo(1);
            assertThat(s.run(poll(m.take(), -1))).isEqualTo(-1);
            assertThat(s.run(poll(m.read(), -1))).isEqualTo(-1);
            MVar<String> full = MVar.of("x");
            assertThat(s.run(full.take())).isEqualTo("x");
        });
    }

    /** Takers and readers wait while empty; a fill serves every reader and the oldest taker. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void fillServesReadersAndOneTaker(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            MVar<Integer> m = new MVar<>();
            List<String> log = new CopyOnWriteArrayList<>();
            List<Fiber<Void>> fs = new ArrayList<>();
            s.run(repeat(3, i -> m.read().map(v -> log.add("read " + v)).then(Job.unit()).start().map(fs::add))
                    .then(repeat(2, i -> m.take().map(v -> log.add("take " + v)).then(Job.unit()).start().map(fs::add)))
                    .then(Job.sleep(Duration.ofMillis(2)))
                    .then(m.fill(5)).then(until(() -> log.size() == 4, "three reads and a take"))
                    .then(Job.sleep(Duration.ofMillis(2))) // room for a wrong second take to show up
                    .then(Job.of(() -> {
                        assertThat(log).containsExactlyInAnyOrder("read 5", "read 5", "read 5", "take 5");
                        return null;
                    }))
                    .then(m.fill(6)).then(Job.defer(() -> repeat(fs.size(), i -> fs.get(i).join()))));
            assertThat(log).containsExactlyInAnyOrder("read 5", "read 5", "read 5", "take 5", "take 6");
            assertThat(s.run(poll(m.read(), -1))).isEqualTo(-1);
        });
    }

    /** modify is atomic: many fibers incrementing one counter lose no update. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void modifyLosesNoUpdate(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            MVar<Integer> counter = MVar.of(0);
            List<Fiber<Integer>> fs = new ArrayList<>();
            s.run(repeat(1000, i -> counter.modify(n -> n + 1).start().map(fs::add))
                    .then(Job.defer(() -> repeat(1000, i -> fs.get(i).join()))));
            assertThat(s.run(counter.read())).isEqualTo(1000);
        });
    }

    /** modify puts the old value back when the function throws. */
    @Test
    void modifyRestoresOnFailure() throws Exception {
        SchedulerKind.SINGLE_THREADED.use(s -> {
            MVar<Integer> m = MVar.of(7);
            assertThatThrownBy(() -> s.run(m.modify(n -> {
                throw new IllegalStateException("no");
            }))).isInstanceOf(IllegalStateException.class).hasMessage("no");
            assertThat(s.run(m.read())).isEqualTo(7);
            assertThat(s.run(m.modify(n -> n * 2))).isEqualTo(14);
        });
    }

    /** A cancelled take consumes nothing; a take that loses in a choose consumes nothing. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancelledOrLosingTakeConsumesNothing(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            MVar<Integer> m = new MVar<>();
            s.run(m.take().start().flatMap(t -> Job.sleep(Duration.ofMillis(1)).then(t.cancel())));
            s.run(m.fill(1));
            assertThat(s.run(m.read())).isEqualTo(1);
            assertThat(s.run(m.take())).isEqualTo(1);
            int r = s.run(Alt.choose(m.take(), Alt.after(Duration.ofMillis(2)).wrap(v -> -1)));
            assertThat(r).isEqualTo(-1);
            s.run(m.fill(2));
            assertThat(s.run(m.take())).isEqualTo(2);
        });
    }
}
