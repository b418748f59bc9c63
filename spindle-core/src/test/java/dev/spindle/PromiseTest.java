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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Promise: lazy, at most once, outcome shared by every reader. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PromiseTest {

    /** Nothing runs before the first read; many concurrent readers share one run. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void runsOnceOnFirstRead(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            AtomicInteger runs = new AtomicInteger();
            Promise<Integer> p = Promise.of(Job.sleep(Duration.ofMillis(2)).then(Job.of(runs::incrementAndGet)));
            s.run(Job.sleep(Duration.ofMillis(2)));
            assertThat(runs.get()).isZero();
            assertThat(p.isDone()).isFalse();
            List<Fiber<Integer>> readers = new ArrayList<>();
            s.run(repeat(100, i -> p.read().start().map(readers::add))
                    .then(Job.defer(() -> repeat(100, i -> readers.get(i).join().map(v -> {
                        assertThat(v).isEqualTo(1);
                        return v;
                    })))));
            assertThat(runs.get()).isEqualTo(1);
            assertThat(p.isDone()).isTrue();
            assertThat(s.run(p.read())).isEqualTo(1);
            assertThat(s.run(poll(p.read(), -1))).isEqualTo(1);
        });
    }

    /** A failure is shared; cancelling a reader does not cancel the shared job. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void failureSharedAndReadersIndependent(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            IllegalStateException boom = new IllegalStateException("boom");
            Promise<Integer> bad = Promise.of(Job.failure(boom));
            assertThatThrownBy(() -> s.run(bad.read())).isSameAs(boom);
            assertThatThrownBy(() -> s.run(bad.read())).isSameAs(boom);

            AtomicInteger runs = new AtomicInteger();
            Channel<Integer> gate = new Channel<>("gate");
            Promise<Integer> slow = Promise.of(gate.take().map(v -> runs.incrementAndGet() + v));
            Outcome<Integer> cancelled = s.run(slow.read().start().flatMap(r ->
                    until(() -> gate.waitingTakers() == 1, "the promise's job waits at the gate")
                            .then(r.cancel()).then(r.outcome())));
            assertThat(cancelled).isInstanceOf(Outcome.Cancelled.class);
            assertThat(slow.isDone()).isFalse();
            assertThat(gate.waitingTakers()).as("the shared job still runs").isEqualTo(1);
            int v = s.run(gate.give(10).then(slow.read()));
            assertThat(v).isEqualTo(11);
            assertThat(runs.get()).isEqualTo(1);
        });
    }
}
