package dev.spindle.sync;

import static dev.spindle.sync.Step.act;
import static dev.spindle.sync.Step.repeat;
import static dev.spindle.sync.Step.seq;
import static dev.spindle.sync.Step.sleep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Job;
import dev.spindle.test.fixture.Patience;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** marl's conditionvariable_test under every {@link Actors} kind, plus cancellation, interrupts and misuse. */
class ConditionVariableTest {
    static Step await(ConditionVariable cv, Mutex mutex, BooleanSupplier predicate) {
        return Step.waitOn(cv.await(mutex, predicate), () -> cv.awaitBlocking(mutex, predicate));
    }

    static Step await(ConditionVariable cv, Mutex mutex, Duration d, BooleanSupplier predicate,
                      Consumer<Boolean> result) {
        return Step.waitFor(cv.await(mutex, d, predicate), () -> cv.awaitBlocking(mutex, d, predicate), result);
    }

    /**
     * marl ConditionVariable: two actors take turns through three triggers, each waiting with a predicate
     * under the mutex and notifying the other.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void pingPong(Actors mode) {
        try (Harness h = new Harness(mode)) {
            boolean[] trigger = new boolean[3];
            boolean[] signal = new boolean[3];
            Mutex mutex = h.watch(new Mutex(), Mutex::waiterCount);
            ConditionVariable cv = h.watch(new ConditionVariable(), ConditionVariable::waiterCount);
            h.run(seq(
                    h.spawn(repeat(3, i -> MutexTest.locked(mutex, seq(
                            await(cv, mutex, () -> trigger[i]),
                            act(() -> {
                                signal[i] = true;
                                cv.signal();
                            }))))),
                    act(() -> assertThat(signal).containsExactly(false, false, false)),
                    repeat(3, i -> seq(
                            MutexTest.locked(mutex, seq(
                                    act(() -> {
                                        trigger[i] = true;
                                        cv.signal();
                                    }),
                                    await(cv, mutex, () -> signal[i]))),
                            act(() -> {
                                for (int j = 0; j < 3; j++) {
                                    assertThat(signal[j]).as("signal[%d] after round %d", j, i).isEqualTo(j <= i);
                                }
                            })))));
        }
    }

    /**
     * marl ConditionVariableTimeouts: rounds of 100 timed waits of 0..99 ms under the mutex, with a
     * signalAll at about 50 ms; every wait ends holding the mutex, none is left, no timer remains.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void timeoutsRacingSignalAll(Actors mode) {
        try (Harness h = new Harness(mode)) {
            int waiters = mode.scale(100, 100);
            AtomicInteger finished = new AtomicInteger();
            AtomicInteger notHeld = new AtomicInteger();
            h.run(repeat(10, round -> {
                Mutex mutex = h.watch(new Mutex(), Mutex::waiterCount);
                ConditionVariable cv = h.watch(new ConditionVariable(), ConditionVariable::waiterCount);
                boolean[] signalled = {false}; // guarded by mutex
                WaitGroup wg = h.watch(new WaitGroup(waiters), WaitGroup::waiterCount);
                return seq(
                        repeat(waiters, j -> h.spawn(seq(
                                MutexTest.locked(mutex, await(cv, mutex, Duration.ofMillis(j), () -> signalled[0], r -> {
                                    if (!mutex.isLocked()) {
                                        notHeld.incrementAndGet();
                                    }
                                    finished.incrementAndGet();
                                })),
                                act(wg::done)))),
                        sleep(Duration.ofMillis(50)),
                        MutexTest.locked(mutex, act(() -> {
                            signalled[0] = true;
                            cv.signalAll();
                        })),
                        WaitGroupTest.await(wg));
            }));
            assertThat(finished).hasValue(10 * waiters);
            assertThat(notHeld).as("waits that ended without the mutex").hasValue(0);
        }
    }

    /**
     * The timed form gives the predicate's final value: false after a timeout, true once it holds. A wait
     * whose first evaluation of the predicate came well before the deadline evaluates it again at the
     * timeout; one whose first evaluation came late (a loaded machine) may find the deadline passed at
     * once, which the test tells apart by the time of that evaluation rather than assume a fast machine.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void timedWaitGivesThePredicatesFinalValue(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Mutex mutex = h.watch(new Mutex(), Mutex::waiterCount);
            ConditionVariable cv = h.watch(new ConditionVariable(), ConditionVariable::waiterCount);
            AtomicBoolean flag = new AtomicBoolean();
            AtomicReference<Boolean> first = new AtomicReference<>();
            AtomicReference<Boolean> second = new AtomicReference<>();
            AtomicInteger evaluations = new AtomicInteger();
            Duration timeout = Duration.ofMillis(20);
            long[] firstEvaluationEnded = {0};
            long started = System.nanoTime(); // before the wait takes its deadline
            h.run(seq(
                    MutexTest.locked(mutex, await(cv, mutex, timeout, () -> {
                        boolean value = flag.get();
                        if (evaluations.incrementAndGet() == 1) {
                            firstEvaluationEnded[0] = System.nanoTime();
                        }
                        return value;
                    }, first::set)),
                    act(() -> flag.set(true)),
                    MutexTest.locked(mutex, await(cv, mutex, Duration.ofDays(1), flag::get, second::set))));
            assertThat(first.get()).isFalse();
            boolean firstInTime = firstEvaluationEnded[0] - started < timeout.toNanos() / 2;
            assertThat(evaluations.get()).as("evaluated first and, if that was in time, again at the timeout")
                    .isGreaterThanOrEqualTo(firstInTime ? 2 : 1);
            assertThat(second.get()).isTrue();
        }
    }

    /** signal() with nobody waiting is lost, and wakes at most one; signalAll wakes every waiter. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void signalWakesOneSignalAllWakesAll(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Mutex mutex = h.watch(new Mutex(), Mutex::waiterCount);
            ConditionVariable cv = h.watch(new ConditionVariable(), ConditionVariable::waiterCount);
            int[] permits = {0}; // guarded by mutex
            AtomicInteger woken = new AtomicInteger();
            h.run(seq(
                    act(cv::signal),
                    repeat(4, i -> h.spawn(MutexTest.locked(mutex, seq(
                            await(cv, mutex, () -> permits[0] > 0),
                            act(() -> {
                                permits[0]--;
                                woken.incrementAndGet();
                            }))))),
                    Step.until(() -> cv.waiterCount() == 4, "four waiters"),
                    MutexTest.locked(mutex, act(() -> {
                        permits[0] = 1;
                        cv.signal();
                    })),
                    Step.until(() -> woken.get() == 1, "one woken"),
                    MutexTest.locked(mutex, act(() -> {
                        permits[0] = 3;
                        cv.signalAll();
                    }))));
            assertThat(woken).hasValue(4);
        }
    }

    @Test
    void misuse() {
        ConditionVariable cv = new ConditionVariable("cv");
        Mutex mutex = new Mutex("m");
        assertThatThrownBy(() -> cv.awaitBlocking(mutex, () -> true)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("needs").hasMessageContaining("\"m\"");
        assertThatThrownBy(() -> cv.await(null, () -> true)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> cv.await(mutex, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> cv.await(mutex, Duration.ofMillis(-1), () -> true))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(cv).hasToString("ConditionVariable \"cv\"[waiters=0]");
    }

    /** A fiber that waits without holding the mutex fails with a clear message. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void fiberMustHoldTheMutex(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Mutex mutex = new Mutex();
            ConditionVariable cv = new ConditionVariable();
            String r = h.runJob(cv.await(mutex, () -> true).attempt().map(Object::toString));
            assertThat(r).contains("IllegalStateException").contains("held by the fiber");
        }
    }

    /** A failing predicate fails the wait, with the mutex still held (withLock then releases it). */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void failingPredicate(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Mutex mutex = h.watch(new Mutex(), Mutex::waiterCount);
            ConditionVariable cv = h.watch(new ConditionVariable(), ConditionVariable::waiterCount);
            AtomicBoolean heldWhenFailing = new AtomicBoolean();
            String r = h.runJob(mutex.withLock(cv.await(mutex, () -> {
                heldWhenFailing.set(mutex.isLocked());
                throw new IllegalArgumentException("bad predicate");
            })).attempt().map(Object::toString));
            assertThat(r).contains("bad predicate");
            assertThat(heldWhenFailing).isTrue();
            assertThat(mutex.isLocked()).isFalse();
        }
    }

    /**
     * A fiber cancelled while waiting re-locks the mutex before it ends, so the surrounding withLock
     * releases exactly its own hold: another fiber holding the mutex at that moment is not disturbed.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void cancelledWaiterRelocksBeforeEnding(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Mutex mutex = h.watch(new Mutex(), Mutex::waiterCount);
            ConditionVariable cv = h.watch(new ConditionVariable(), ConditionVariable::waiterCount);
            AtomicBoolean heldAtCancel = new AtomicBoolean();
            Job<Void> waiter = mutex.withLock(cv.await(mutex, () -> false)
                    .onCancel(Job.run(() -> heldAtCancel.set(mutex.isLocked()))));
            String r = h.runJob(waiter.start().flatMap(f ->
                    WaitGroupTest.untilWaiters(cv::waiterCount, 1)
                            .then(mutex.withLock(f.cancel().start() // request; the fiber ends after we unlock
                                    .then(Job.sleep(Duration.ofMillis(2)))
                                    .then(Job.of(() -> "other still holds: " + mutex.isLocked()))))
                            .flatMap(s -> f.outcome().map(o -> s + " / " + o))));
            assertThat(r).startsWith("other still holds: true").contains("Cancelled");
            assertThat(heldAtCancel).isTrue();
            assertThat(mutex.isLocked()).isFalse();
        }
    }

    /** A cancelled timed waiter leaves no timer (the harness checks) and holds the mutex at its end. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void cancelledTimedWaiterLeavesNoTimer(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Mutex mutex = h.watch(new Mutex(), Mutex::waiterCount);
            ConditionVariable cv = h.watch(new ConditionVariable(), ConditionVariable::waiterCount);
            String r = h.runJob(mutex.withLock(cv.await(mutex, Duration.ofDays(1), () -> false)).start()
                    .flatMap(f -> WaitGroupTest.untilWaiters(cv::waiterCount, 1).then(f.cancel()).then(f.outcome()))
                    .map(Object::toString));
            assertThat(r).contains("Cancelled");
            assertThat(mutex.isLocked()).isFalse();
        }
    }

    /** A thread interrupted while waiting throws InterruptedException holding the mutex again. */
    @Test
    void interruptedThreadHoldsTheMutexAgain() throws Exception {
        Mutex mutex = new Mutex();
        ConditionVariable cv = new ConditionVariable();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean heldAfter = new AtomicBoolean();
        Thread t = new Thread(() -> {
            try {
                mutex.lockBlocking();
                try {
                    cv.awaitBlocking(mutex, () -> false);
                } finally {
                    heldAfter.set(mutex.isLocked());
                    mutex.unlock();
                }
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        Patience.until(() -> cv.waiterCount() == 1, "the thread to wait");
        t.interrupt();
        t.join(Patience.LONG.toMillis());
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        assertThat(heldAfter).isTrue();
        assertThat(mutex.isLocked()).isFalse();
        assertThat(cv.waiterCount()).isZero();
    }
}
