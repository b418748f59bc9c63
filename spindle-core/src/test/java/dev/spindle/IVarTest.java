package dev.spindle;

import static dev.spindle.CommJobs.poll;
import static dev.spindle.CommJobs.repeat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.fixture.SchedulerKind;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** IVar: write once, read many; waiting readers; failures; reads offered in a choose. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IVarTest {

    /** Readers that arrive before the fill wait and all get the value; later readers get it at once. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void readersWaitForTheFill(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            IVar<String> iv = new IVar<>("greeting");
            AtomicInteger got = new AtomicInteger();
            List<Fiber<Void>> readers = new ArrayList<>();
            s.run(repeat(200, i -> iv.read().map(v -> {
                assertThat(v).isEqualTo("hi");
                got.incrementAndGet();
                return (Void) null;
            }).start().map(readers::add)).then(Job.sleep(Duration.ofMillis(2)))
                    .then(Job.of(() -> {
                        assertThat(got.get()).as("reads completed before the fill").isZero();
                        return null;
                    }))
                    .then(iv.fill("hi")).then(Job.defer(() -> repeat(200, i -> readers.get(i).join()))));
            assertThat(got.get()).isEqualTo(200);
            assertThat(s.run(iv.read())).isEqualTo("hi");
        });
    }

    /** A second fill fails with IllegalStateException naming the IVar and leaves the value as it was. */
    @Test
    void fillTwiceFails() throws Exception {
        SchedulerKind.SINGLE_THREADED.use(s -> {
            IVar<Integer> iv = new IVar<>("answer");
            s.run(iv.fill(42));
            assertThatThrownBy(() -> s.run(iv.fill(43))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("answer").hasMessageContaining("already filled");
            assertThatThrownBy(() -> s.run(iv.fillFailure(new RuntimeException()))).isInstanceOf(IllegalStateException.class);
            assertThat(s.run(iv.tryFill(44))).isFalse();
            assertThat(s.run(iv.read())).isEqualTo(42);
            IVar<Integer> other = new IVar<>();
            assertThat(s.run(other.tryFill(1))).isTrue();
            assertThat(s.run(other.tryFill(2))).isFalse();
            assertThat(s.run(other.read())).isEqualTo(1);
            assertThat(iv.toString()).contains("answer").contains("full");
        });
    }

    /** A failure fills the IVar too: waiting and later readers fail with it. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void fillFailureFailsEveryReader(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            IVar<Integer> iv = new IVar<>("doomed");
            IllegalArgumentException boom = new IllegalArgumentException("boom");
            Outcome<Integer> waiting = s.run(iv.read().start().flatMap(r -> Job.sleep(Duration.ofMillis(1))
                    .then(iv.fillFailure(boom)).then(r.outcome())));
            assertThat(waiting).isEqualTo(Outcome.failure(boom));
            assertThatThrownBy(() -> s.run(iv.read())).isSameAs(boom);
            assertThatThrownBy(() -> s.run(Alt.choose(iv.read(), Alt.always(0)))).isSameAs(boom);
        });
    }

    /** A read offered in a choose waits like any alternative and loses without effect. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void readInAChoose(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            IVar<Integer> iv = new IVar<>();
            assertThat(s.run(poll(iv.read(), -1))).isEqualTo(-1);
            int v = s.run(Alt.choose(iv.read(), Alt.after(Duration.ofHours(1)).wrap(x -> -2)).start()
                    .flatMap(f -> Job.sleep(Duration.ofMillis(1)).then(iv.fill(7)).then(f.join())));
            assertThat(v).isEqualTo(7);
            assertThat(s.run(Alt.choose(iv.read(), Alt.always(-1)))).isEqualTo(7);
        });
    }

    /** A reader cancelled while waiting is removed; the fill does not resume it. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancelledReaderIsRemoved(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            IVar<Integer> iv = new IVar<>();
            Outcome<Integer> o = s.run(iv.read().start().flatMap(r -> Job.sleep(Duration.ofMillis(1))
                    .then(r.cancel()).then(iv.fill(1)).then(r.outcome())));
            assertThat(o).isInstanceOf(Outcome.Cancelled.class);
        });
    }

    /** Resuming blocked readers allocates nothing per reader: the fill pushes their continuations. */
    @Test
    void fillResumesReadersWithoutAllocating() throws Exception {
        // through reflection: the tests are compiled inside module dev.spindle, which does not read java.management
        Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
        Class<?> sunBean = Class.forName("com.sun.management.ThreadMXBean");
        if (!sunBean.isInstance(bean) || !(boolean) sunBean.getMethod("isThreadAllocatedMemorySupported").invoke(bean)) {
            return;
        }
        Method allocated = sunBean.getMethod("getThreadAllocatedBytes", long.class);
        SchedulerKind.SINGLE_THREADED.use(s -> {
            long small = fillCost(s, bean, allocated, 10);
            long large = fillCost(s, bean, allocated, 20_010);
            assertThat((large - small) / 20_000.0).as("bytes allocated by fill per extra blocked reader")
                    .isLessThan(1.0);
        });
    }

    private static long fillCost(Scheduler s, Object bean, Method allocated, int readers) throws Exception {
        long best = Long.MAX_VALUE;
        long tid = Thread.currentThread().threadId();
        for (int round = 0; round < 5; round++) {
            IVar<Integer> iv = new IVar<>();
            s.run(repeat(readers, i -> iv.read().start()).then(Job.sleep(Duration.ofMillis(1))));
            Job<Void> fill = iv.fill(1);
            long before = (long) allocated.invoke(bean, tid);
            s.run(fill);
            long cost = (long) allocated.invoke(bean, tid) - before;
            best = Math.min(best, cost);
            s.run(Job.sleep(Duration.ofMillis(1))); // let the readers finish
        }
        return best;
    }

    /** The same IVar used by many fillers at once: exactly one tryFill wins. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void exactlyOneTryFillWins(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            for (int round = 0; round < 50; round++) {
                IVar<Integer> iv = new IVar<>();
                AtomicInteger wins = new AtomicInteger();
                List<Fiber<Void>> fs = new ArrayList<>();
                s.run(repeat(16, i -> iv.tryFill(i).map(won -> {
                    if (won) {
                        wins.incrementAndGet();
                    }
                    return (Void) null;
                }).start().map(fs::add)).then(Job.defer(() -> repeat(16, i -> fs.get(i).join()))));
                assertThat(wins.get()).isEqualTo(1);
            }
        });
    }
}
