package dev.spindle.sync;

import static dev.spindle.sync.Step.act;
import static dev.spindle.sync.Step.repeat;
import static dev.spindle.sync.Step.seq;
import static dev.spindle.sync.Step.waitOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Job;
import dev.spindle.test.fixture.Patience;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** marl's waitgroup_test, under every {@link Actors} kind, plus cancellation, interrupts and bad input. */
class WaitGroupTest {
    static Step await(WaitGroup wg) {
        return waitOn(wg.await(), wg::awaitBlocking);
    }

    /** marl WaitGroupDone: done() down to zero without anyone waiting. */
    @Test
    void doneToZeroWithoutWaiters() {
        WaitGroup wg = new WaitGroup(2);
        wg.done();
        wg.done();
        assertThat(wg.count()).isZero();
        assertThat(wg.waiterCount()).isZero();
    }

    /** marl WaitGroupDoneTooMany: a clear exception, and the count stays zero. */
    @Test
    void doneBelowZeroFailsClearly() {
        WaitGroup wg = new WaitGroup(2, "jobs");
        wg.done();
        wg.done();
        assertThatThrownBy(wg::done).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("more times than tasks").hasMessageContaining("\"jobs\"");
        assertThat(wg.count()).isZero();
    }

    /** Bad input fails at once and changes nothing. */
    @Test
    void badInput() {
        assertThatThrownBy(() -> new WaitGroup(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        WaitGroup wg = new WaitGroup(1);
        assertThatThrownBy(() -> wg.add(-2)).isInstanceOf(IllegalArgumentException.class);
        assertThat(wg.count()).isEqualTo(1);
        assertThatThrownBy(() -> wg.add(Integer.MAX_VALUE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("overflow");
        assertThat(wg.count()).isEqualTo(1);
    }

    @Test
    void toStringNamesStateAndWaiters() {
        assertThat(new WaitGroup(3, "loaders")).hasToString("WaitGroup \"loaders\"[count=3, waiters=0]");
        assertThat(new WaitGroup(1).toString()).startsWith("WaitGroup@").endsWith("[count=1, waiters=0]");
    }

    /** marl WaitGroup_OneTask. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void oneTask(Actors mode) {
        try (Harness h = new Harness(mode)) {
            WaitGroup wg = h.watch(new WaitGroup(1), WaitGroup::waiterCount);
            AtomicInteger counter = new AtomicInteger();
            h.run(seq(
                    h.spawn(act(() -> {
                        counter.incrementAndGet();
                        wg.done();
                    })),
                    await(wg),
                    act(() -> assertThat(counter).hasValue(1))));
        }
    }

    /** marl WaitGroup_10Tasks. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void tenTasks(Actors mode) {
        try (Harness h = new Harness(mode)) {
            WaitGroup wg = h.watch(new WaitGroup(10), WaitGroup::waiterCount);
            AtomicInteger counter = new AtomicInteger();
            h.run(seq(
                    repeat(10, i -> h.spawn(act(() -> {
                        counter.incrementAndGet();
                        wg.done();
                    }))),
                    await(wg),
                    act(() -> assertThat(counter).hasValue(10))));
        }
    }

    /** add() announces tasks after construction; many waiters are all released by the last done(). */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void manyWaitersReleasedByLastDone(Actors mode) {
        try (Harness h = new Harness(mode)) {
            WaitGroup wg = h.watch(new WaitGroup(), WaitGroup::waiterCount);
            WaitGroup waiting = h.watch(new WaitGroup(20), WaitGroup::waiterCount);
            AtomicInteger released = new AtomicInteger();
            wg.add(3);
            h.run(seq(
                    repeat(20, i -> h.spawn(seq(act(waiting::done), await(wg), act(released::incrementAndGet)))),
                    await(waiting),
                    act(() -> {
                        wg.done();
                        wg.done();
                        assertThat(released).hasValue(0);
                        wg.done();
                    })));
            assertThat(released).hasValue(20);
            assertThat(wg.count()).isZero();
        }
    }

    /** A wait group can be reused: after zero, add() closes it again. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void reusedAfterZero(Actors mode) {
        try (Harness h = new Harness(mode)) {
            WaitGroup wg = h.watch(new WaitGroup(), WaitGroup::waiterCount);
            AtomicInteger rounds = new AtomicInteger();
            h.run(repeat(5, round -> seq(
                    act(() -> wg.add(4)),
                    repeat(4, i -> h.spawn(act(wg::done))),
                    await(wg),
                    act(rounds::incrementAndGet))));
            assertThat(rounds).hasValue(5);
        }
    }

    /** A fiber cancelled while waiting is removed and leaves nothing behind. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void cancelledWaiterIsRemoved(Actors mode) {
        try (Harness h = new Harness(mode)) {
            WaitGroup wg = h.watch(new WaitGroup(1), WaitGroup::waiterCount);
            String outcome = h.runJob(wg.await().start().flatMap(f -> untilWaiters(wg::waiterCount, 1)
                    .then(f.cancel()).then(f.outcome())).map(Object::toString));
            assertThat(outcome).contains("Cancelled");
            assertThat(wg.waiterCount()).isZero();
            wg.done();
        }
    }

    /** A thread interrupted while waiting throws InterruptedException and is removed. */
    @Test
    void interruptedThreadIsRemoved() throws Exception {
        WaitGroup wg = new WaitGroup(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                wg.awaitBlocking();
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        Patience.until(() -> wg.waiterCount() == 1, "the thread to wait");
        t.interrupt();
        t.join(Patience.LONG.toMillis());
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        assertThat(wg.waiterCount()).isZero();
    }

    /** The blocking form refuses to park a thread that runs fibers; the message names the job form. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void blockingFormInsideAJobFailsFast(Actors mode) {
        try (Harness h = new Harness(mode)) {
            WaitGroup wg = h.watch(new WaitGroup(1), WaitGroup::waiterCount);
            String failure = h.runJob(Job.run(() -> {
                try {
                    wg.awaitBlocking();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }).attempt().map(Object::toString));
            assertThat(failure).contains("IllegalStateException").contains("job form await()");
            WaitGroup open = new WaitGroup();
            h.runJob(Job.of(() -> {
                open.awaitBlocking(); // nothing to wait for: allowed
                return null;
            }));
        }
    }

    /** Polls {@code count} from a fiber until it reaches {@code n} (sleeping a millisecond between looks). */
    static Job<Void> untilWaiters(java.util.function.IntSupplier count, int n) {
        return Job.defer(() -> count.getAsInt() >= n
                ? Job.unit()
                : Job.sleep(Duration.ofMillis(1)).then(untilWaiters(count, n)));
    }

}
