package dev.spindle.sync;

import static dev.spindle.sync.Step.act;
import static dev.spindle.sync.Step.repeat;
import static dev.spindle.sync.Step.seq;
import static dev.spindle.sync.Step.yieldNow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.test.fixture.Patience;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Semaphore: bounded concurrency, FIFO hand-over, misuse, and permit conservation under cancellation. */
class SemaphoreTest {
    /** {@code body} holding a permit: withPermit for fibers, acquireBlocking/finally release for threads. */
    static Step withPermit(Semaphore s, Step body) {
        return new Step() {
            @Override
            public Job<Void> job() {
                return s.withPermit(body.job());
            }

            @Override
            public void block() throws Exception {
                s.acquireBlocking();
                try {
                    body.block();
                } finally {
                    s.release();
                }
            }
        };
    }

    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void atMostPermitsHoldersAtOnce(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Semaphore s = h.watch(new Semaphore(3, "three"), Semaphore::waiterCount);
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger max = new AtomicInteger();
            AtomicInteger runs = new AtomicInteger();
            int actors = mode.scale(20, 10);
            h.run(repeat(actors, a -> h.spawn(repeat(50, r -> withPermit(s, seq(
                    act(() -> max.accumulateAndGet(inside.incrementAndGet(), Math::max)),
                    yieldNow(),
                    act(() -> {
                        runs.incrementAndGet();
                        inside.decrementAndGet();
                    })))))));
            assertThat(max.get()).isBetween(1, 3);
            assertThat(runs).hasValue(actors * 50);
            assertThat(s.availablePermits()).isEqualTo(3);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void releaseHandsToOldestWaiter(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Semaphore s = h.watch(new Semaphore(0), Semaphore::waiterCount);
            StringBuffer order = new StringBuffer();
            h.run(seq(
                    repeat(4, i -> seq(
                            h.spawn(seq(Step.waitOn(s.acquire(), s::acquireBlocking), act(() -> order.append(i)))),
                            Step.until(() -> s.waiterCount() == i + 1, "waiter " + i))),
                    repeat(4, i -> seq(act(s::release), Step.until(() -> order.length() == i + 1, "grant " + i)))));
            assertThat(order).hasToString("0123");
            assertThat(s.availablePermits()).isZero();
        }
    }

    @Test
    void nonBlockingOperationsAndMisuse() {
        Semaphore s = new Semaphore(1, "one");
        assertThat(s.tryAcquire()).isTrue();
        assertThat(s.tryAcquire()).isFalse();
        s.release();
        s.release();
        assertThat(s.availablePermits()).as("release may raise the count, as in the JDK").isEqualTo(2);
        assertThat(s).hasToString("Semaphore \"one\"[permits=2, waiters=0]");
        assertThatThrownBy(() -> new Semaphore(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        Semaphore full = new Semaphore(Integer.MAX_VALUE);
        assertThatThrownBy(full::release).isInstanceOf(IllegalStateException.class).hasMessageContaining("overflow");
        assertThatThrownBy(() -> s.withPermit(null)).isInstanceOf(NullPointerException.class);
    }

    /**
     * A cancelled waiter never loses or leaks a permit: many withPermit jobs, a random half cancelled at random
     * moments (waiting, granted but not yet running, running); afterwards every permit is back and no waiter
     * is left.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void cancellationNeverLosesOrLeaksAPermit(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Semaphore s = h.watch(new Semaphore(2), Semaphore::waiterCount);
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger over = new AtomicInteger();
            SplittableRandom random = new SplittableRandom(7);
            Job<Void> body = Job.run(() -> {
                if (inside.incrementAndGet() > 2) {
                    over.incrementAndGet();
                }
            }).then(Job.sleep(Duration.ofNanos(30_000))).ensure(Job.run(inside::decrementAndGet));
            Job<Void> round = Job.defer(() -> {
                List<Job<Fiber<Void>>> starts = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    starts.add(s.withPermit(body).start());
                }
                return Job.all(starts).flatMap(fibers -> {
                    Job<Void> chain = Job.unit();
                    for (Fiber<Void> f : fibers) {
                        if (random.nextBoolean()) {
                            chain = chain.then(random.nextBoolean() ? Job.yieldNow() : Job.unit()).then(f.cancel());
                        }
                    }
                    for (Fiber<Void> f : fibers) {
                        chain = chain.then(f.outcome().then(Job.unit()));
                    }
                    return chain;
                });
            });
            Job<Void> all = Job.unit();
            for (int i = 0; i < 60; i++) {
                all = all.then(round);
            }
            h.runJob(all);
            assertThat(over).as("holders beyond the permits").hasValue(0);
            assertThat(s.availablePermits()).isEqualTo(2);
        }
    }

    /** Bare acquire(): a waiter cancelled while waiting takes nothing; the permit goes to the next one. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void cancelledAcquireTakesNothing(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Semaphore s = h.watch(new Semaphore(0), Semaphore::waiterCount);
            String r = h.runJob(s.acquire().start().flatMap(first ->
                    WaitGroupTest.untilWaiters(s::waiterCount, 1).then(s.acquire().start()).flatMap(second ->
                            WaitGroupTest.untilWaiters(s::waiterCount, 2).then(first.cancel())
                                    .then(Job.run(s::release)).then(second.join())
                                    .then(first.outcome().map(Object::toString)))));
            assertThat(r).contains("Cancelled");
            assertThat(s.availablePermits()).isZero();
            s.release();
        }
    }

    /** A thread interrupted while waiting takes no permit. */
    @Test
    void interruptedThreadTakesNoPermit() throws Exception {
        Semaphore s = new Semaphore(0);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                s.acquireBlocking();
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        Patience.until(() -> s.waiterCount() == 1, "the thread to wait");
        t.interrupt();
        t.join(Patience.LONG.toMillis());
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        s.release();
        assertThat(s.availablePermits()).isEqualTo(1);
        assertThat(s.waiterCount()).isZero();
    }
}
