package dev.spindle.sync;

import static dev.spindle.sync.Step.act;
import static dev.spindle.sync.Step.repeat;
import static dev.spindle.sync.Step.seq;
import static dev.spindle.sync.Step.yieldNow;
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

/** Mutex: exclusion, fairness of hand-over, misuse, cancellation and interrupts, under every {@link Actors} kind. */
class MutexTest {
    /** {@code body} holding {@code mutex}: withLock for fibers, lockBlocking/finally unlock for threads. */
    static Step locked(Mutex mutex, Step body) {
        return new Step() {
            @Override
            public Job<Void> job() {
                return mutex.withLock(body.job());
            }

            @Override
            public void block() throws Exception {
                mutex.lockBlocking();
                try {
                    body.block();
                } finally {
                    mutex.unlock();
                }
            }
        };
    }

    /** Bare lock()/unlock() steps (the caller pairs them). */
    static Step lock(Mutex mutex) {
        return Step.waitOn(mutex.lock(), mutex::lockBlocking);
    }

    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void mutualExclusion(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Mutex mutex = h.watch(new Mutex("counter"), Mutex::waiterCount);
            int actors = mode.scale(16, 8);
            int rounds = 200;
            int[] counter = {0}; // guarded by mutex: plain on purpose
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            h.run(repeat(actors, a -> h.spawn(repeat(rounds, r -> locked(mutex, seq(
                    act(() -> {
                        if (inside.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        counter[0]++;
                    }),
                    r % 8 == 0 ? yieldNow() : act(() -> { }),
                    act(inside::decrementAndGet)))))));
            assertThat(overlaps).hasValue(0);
            assertThat(counter[0]).isEqualTo(actors * rounds);
            assertThat(mutex.isLocked()).isFalse();
        }
    }

    /** unlock() hands the lock to the oldest waiter: waiters get it in arrival order. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void handOverIsFifo(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Mutex mutex = h.watch(new Mutex(), Mutex::waiterCount);
            StringBuffer order = new StringBuffer();
            int n = 5;
            h.run(seq(
                    lock(mutex),
                    repeat(n, i -> seq(
                            h.spawn(locked(mutex, act(() -> order.append(i)))),
                            Step.until(() -> mutex.waiterCount() == i + 1, "waiter " + i))),
                    act(mutex::unlock)));
            assertThat(order).hasToString("01234");
        }
    }

    @Test
    void tryLockAndMisuse() {
        Mutex mutex = new Mutex("m");
        assertThat(mutex.tryLock()).isTrue();
        assertThat(mutex.tryLock()).isFalse();
        assertThat(mutex.toString()).isEqualTo("Mutex \"m\"[locked by unknown, waiters=0]");
        mutex.unlock();
        assertThatThrownBy(mutex::unlock).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not locked").hasMessageContaining("\"m\"");
        assertThat(mutex.isLocked()).isFalse();
    }

    @Test
    void threadRelockFailsFast() throws Exception {
        Mutex mutex = new Mutex();
        mutex.lockBlocking();
        assertThat(mutex.toString()).contains("locked by thread \"" + Thread.currentThread().getName() + "\"");
        assertThatThrownBy(mutex::lockBlocking).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not reentrant");
        mutex.unlock();
    }

    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void fiberRelockFailsFast(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Mutex mutex = h.watch(new Mutex(), Mutex::waiterCount);
            String r = h.runJob(mutex.withLock(mutex.lock()).attempt().map(Object::toString));
            assertThat(r).contains("IllegalStateException").contains("not reentrant");
            assertThat(mutex.isLocked()).as("withLock released after its body failed").isFalse();
        }
    }

    /** withLock releases on failure of the body. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void withLockReleasesOnFailure(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Mutex mutex = h.watch(new Mutex(), Mutex::waiterCount);
            String r = h.runJob(mutex.withLock(Job.failure(new IllegalArgumentException("no"))).attempt()
                    .map(Object::toString));
            assertThat(r).contains("no");
            assertThat(mutex.isLocked()).isFalse();
        }
    }

    /**
     * Cancellation never leaves the lock held: waiters cancelled at random moments (before, during and after
     * their grant) under withLock; afterwards the mutex is free, no waiter is left, and the holders that ran
     * never overlapped.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void cancellationNeverLeavesTheLockHeld(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Mutex mutex = h.watch(new Mutex(), Mutex::waiterCount);
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            Job<Void> body = Job.run(() -> {
                if (inside.incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
            }).then(Job.sleep(Duration.ofNanos(50_000))).ensure(Job.run(inside::decrementAndGet));
            Job<Void> round = Job.defer(() -> {
                java.util.List<Job<Void>> racers = new java.util.ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    racers.add(mutex.withLock(body));
                }
                return Job.all(racers.stream().map(j -> j.start()).toList()).flatMap(fibers -> {
                    Job<Void> cancels = Job.unit();
                    for (int i = 0; i < fibers.size(); i += 2) {
                        cancels = cancels.then(Job.yieldNow()).then(fibers.get(i).cancel());
                    }
                    Job<Void> joins = Job.unit();
                    for (var f : fibers) {
                        joins = joins.then(f.outcome().then(Job.unit()));
                    }
                    return cancels.then(joins);
                });
            });
            Job<Void> all = Job.unit();
            for (int i = 0; i < 50; i++) {
                all = all.then(round);
            }
            h.runJob(all);
            assertThat(overlaps).hasValue(0);
            assertThat(mutex.isLocked()).isFalse();
        }
    }

    /** A thread interrupted while waiting for the lock throws and does not hold it. */
    @Test
    void interruptedThreadDoesNotHoldTheLock() throws Exception {
        Mutex mutex = new Mutex();
        mutex.lockBlocking();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                mutex.lockBlocking();
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        Patience.until(() -> mutex.waiterCount() == 1, "the thread to wait");
        t.interrupt();
        t.join(Patience.LONG.toMillis());
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        assertThat(mutex.waiterCount()).isZero();
        mutex.unlock();
        assertThat(mutex.isLocked()).isFalse();
    }
}
