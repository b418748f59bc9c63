package dev.spindle.sync;

import static dev.spindle.sync.Step.act;
import static dev.spindle.sync.Step.repeat;
import static dev.spindle.sync.Step.seq;
import static dev.spindle.sync.Step.sleep;
import static dev.spindle.sync.Step.waitFor;
import static dev.spindle.sync.Step.waitOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Job;
import dev.spindle.test.fixture.Patience;
import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** marl's event_test under every {@link Actors} kind, plus timed-wait races, cancellation and bad input. */
class EventTest {
    static Step await(Event e) {
        return waitOn(e.await(), e::awaitBlocking);
    }

    static Step await(Event e, Duration timeout, java.util.function.Consumer<Boolean> result) {
        return waitFor(e.await(timeout), () -> e.awaitBlocking(timeout), result);
    }

    /** marl EventIsSignalled: isSignalled() never consumes, in either mode. */
    @ParameterizedTest
    @EnumSource(Event.Mode.class)
    void isSignalledDoesNotConsume(Event.Mode m) {
        Event event = new Event(m);
        assertThat(event.isSignalled()).isFalse();
        event.signal();
        assertThat(event.isSignalled()).isTrue();
        assertThat(event.isSignalled()).isTrue();
        event.clear();
        assertThat(event.isSignalled()).isFalse();
    }

    /** marl EventAutoTest: test() consumes an AUTO signal. */
    @Test
    void autoTestConsumes() {
        Event event = new Event(Event.Mode.AUTO);
        assertThat(event.test()).isFalse();
        event.signal();
        assertThat(event.test()).isTrue();
        assertThat(event.test()).isFalse();
    }

    /** marl EventManualTest: test() does not consume a MANUAL signal. */
    @Test
    void manualTestKeeps() {
        Event event = new Event(Event.Mode.MANUAL);
        assertThat(event.test()).isFalse();
        event.signal();
        assertThat(event.test()).isTrue();
        assertThat(event.test()).isTrue();
    }

    @Test
    void initiallySignalledAndNames() {
        Event e = new Event(Event.Mode.AUTO, true, "ready");
        assertThat(e).hasToString("Event \"ready\"[auto, signalled, waiters=0]");
        assertThat(e.test()).isTrue();
        assertThat(e.mode()).isEqualTo(Event.Mode.AUTO);
        assertThat(new Event(Event.Mode.MANUAL).toString()).startsWith("Event@").contains("manual, not signalled");
    }

    @Test
    void badInput() {
        assertThatThrownBy(() -> new Event(null)).isInstanceOf(NullPointerException.class);
        Event e = new Event(Event.Mode.AUTO);
        assertThatThrownBy(() -> e.await(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> e.await(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> e.awaitBlocking(Duration.ofSeconds(-5))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(Event::any).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Event.any(e, null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("events[1]");
    }

    /** marl EventAutoWait: each AUTO signal releases exactly one of three waiters. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void autoWaitReleasesOnePerSignal(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Event event = h.watch(new Event(Event.Mode.AUTO), Event::waiterCount);
            Event done = h.watch(new Event(Event.Mode.AUTO), Event::waiterCount);
            AtomicInteger counter = new AtomicInteger();
            h.run(seq(
                    repeat(3, i -> h.spawn(seq(await(event), act(() -> {
                        counter.incrementAndGet();
                        done.signal();
                    })))),
                    act(() -> assertThat(counter).hasValue(0)),
                    repeat(3, i -> seq(
                            act(event::signal),
                            await(done),
                            act(() -> assertThat(counter).hasValue(i + 1))))));
        }
    }

    /** marl EventManualWait: one MANUAL signal releases every waiter. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void manualWaitReleasesAll(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Event event = h.watch(new Event(Event.Mode.MANUAL), Event::waiterCount);
            WaitGroup wg = h.watch(new WaitGroup(3), WaitGroup::waiterCount);
            AtomicInteger counter = new AtomicInteger();
            h.run(seq(
                    repeat(3, i -> h.spawn(seq(await(event), act(() -> {
                        counter.incrementAndGet();
                        wg.done();
                    })))),
                    act(event::signal),
                    WaitGroupTest.await(wg),
                    act(() -> assertThat(counter).hasValue(3))));
        }
    }

    /** marl EventSequence: a chain of events imposes an order, in both modes. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void sequence(Actors mode) {
        for (Event.Mode m : Event.Mode.values()) {
            try (Harness h = new Harness(mode)) {
                Event a = h.watch(new Event(m), Event::waiterCount);
                Event b = h.watch(new Event(m), Event::waiterCount);
                Event c = h.watch(new Event(m), Event::waiterCount);
                Event done = h.watch(new Event(m), Event::waiterCount);
                StringBuffer sequence = new StringBuffer();
                h.run(seq(
                        h.spawn(seq(await(b), act(() -> sequence.append('B')), act(c::signal))),
                        h.spawn(seq(await(a), act(() -> sequence.append('A')), act(b::signal))),
                        h.spawn(seq(await(c), act(() -> sequence.append('C')), act(done::signal))),
                        act(() -> assertThat(sequence).isEmpty()),
                        act(a::signal),
                        await(done),
                        act(() -> assertThat(sequence).hasToString("ABC"))));
            }
        }
    }

    /** marl EventWaitForUnblocked: a signalled event's timed wait returns true at once. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void timedWaitOnSignalledEvent(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Event event = h.watch(new Event(Event.Mode.MANUAL, true), Event::waiterCount);
            List<Boolean> results = Collections.synchronizedList(new ArrayList<>());
            h.run(seq(await(event, Duration.ofDays(1), results::add), await(event, Duration.ZERO, results::add)));
            assertThat(results).containsExactly(true, true);
            event.clear();
            h.run(await(event, Duration.ZERO, results::add));
            assertThat(results).containsExactly(true, true, false);
        }
    }

    /** marl EventWaitForTimeTaken: unsignalled timed waits return false, and not before their time. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void timedWaitTakesItsTime(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Event event = h.watch(new Event(Event.Mode.AUTO), Event::waiterCount);
            int n = mode.scale(1000, 100);
            Duration d = Duration.ofMillis(10);
            WaitGroup wg = h.watch(new WaitGroup(n), WaitGroup::waiterCount);
            AtomicInteger early = new AtomicInteger();
            AtomicInteger triggered = new AtomicInteger();
            h.run(seq(
                    repeat(n, i -> h.spawn(timedWaitMeasured(event, d, triggered, early, wg))),
                    WaitGroupTest.await(wg)));
            assertThat(triggered).hasValue(0);
            assertThat(early).as("timed waits that returned before their timeout").hasValue(0);
        }
    }

    private static Step timedWaitMeasured(Event event, Duration d, AtomicInteger triggered, AtomicInteger early,
                                          WaitGroup wg) {
        long[] start = new long[1];
        return seq(
                act(() -> start[0] = System.nanoTime()),
                await(event, d, r -> {
                    if (r) {
                        triggered.incrementAndGet();
                    }
                    if (System.nanoTime() - start[0] < d.toNanos()) {
                        early.incrementAndGet();
                    }
                }),
                act(wg::done));
    }

    /**
     * marl EventWaitStressTest: rounds of 100 timed waits of 0..99 ms unblocked by a signal at about 50 ms,
     * so that early signals race expiring timers. Every wait returns exactly once, none is left queued, and
     * no timer is left pending (the harness's leak check). Unlike marl's, each round starts unsignalled.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void waitStress(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Event event = h.watch(new Event(Event.Mode.MANUAL), Event::waiterCount);
            AtomicInteger returned = new AtomicInteger();
            int waiters = mode.scale(100, 100);
            h.run(repeat(10, round -> {
                WaitGroup wg = h.watch(new WaitGroup(waiters), WaitGroup::waiterCount);
                return seq(
                        act(event::clear),
                        repeat(waiters, j -> h.spawn(seq(
                                await(event, Duration.ofMillis(j), r -> returned.incrementAndGet()),
                                act(wg::done)))),
                        sleep(Duration.ofMillis(50)),
                        act(event::signal),
                        WaitGroupTest.await(wg));
            }));
            assertThat(returned).hasValue(10 * waiters);
        }
    }

    /** marl EventAny: any() is signalled by whichever input is. */
    @Test
    void anyIsSignalledByEachInput() {
        for (int i = 0; i < 3; i++) {
            Event[] events = {new Event(Event.Mode.AUTO), new Event(Event.Mode.AUTO), new Event(Event.Mode.AUTO)};
            Event any = Event.any(events);
            assertThat(any.isSignalled()).isFalse();
            events[i].signal();
            assertThat(any.isSignalled()).isTrue();
            assertThat(any.mode()).isEqualTo(Event.Mode.MANUAL);
            assertThat(events[i].isSignalled()).as("the input keeps its own signal").isTrue();
        }
    }

    /** any() of an already signalled input starts signalled; a waiter on it wakes on a later signal. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void anyWakesItsWaiters(Actors mode) {
        assertThat(Event.any(new Event(Event.Mode.MANUAL), new Event(Event.Mode.AUTO, true)).isSignalled()).isTrue();
        try (Harness h = new Harness(mode)) {
            Event a = h.watch(new Event(Event.Mode.AUTO, false, "a"), Event::waiterCount);
            Event b = h.watch(new Event(Event.Mode.MANUAL, false, "b"), Event::waiterCount);
            Event any = h.watch(Event.any(a, b), Event::waiterCount);
            assertThat(any.toString()).contains("any(a, b)");
            AtomicInteger woken = new AtomicInteger();
            h.run(seq(
                    repeat(4, i -> h.spawn(seq(await(any), act(woken::incrementAndGet)))),
                    Step.until(() -> any.waiterCount() + woken.get() == 4, "waiters on any"),
                    act(b::signal)));
            assertThat(woken).hasValue(4);
        }
    }

    /**
     * No lost wake-up and no double resumption when a short timed wait races a signal: with one waiter on
     * an AUTO event, a signal either reaches the waiter (true) or stays in the event, never both, never
     * neither.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void timedWaitRacingSignalNeitherLosesNorDuplicates(Actors mode) {
        try (Harness h = new Harness(mode)) {
            SplittableRandom random = new SplittableRandom(42);
            int rounds = 100;
            AtomicInteger lost = new AtomicInteger();
            AtomicInteger duplicated = new AtomicInteger();
            h.run(repeat(rounds, round -> {
                Event event = h.watch(new Event(Event.Mode.AUTO), Event::waiterCount);
                WaitGroup both = h.watch(new WaitGroup(1), WaitGroup::waiterCount);
                Duration timeout = Duration.ofNanos(random.nextLong(0, 1_500_000));
                Duration delay = Duration.ofNanos(random.nextLong(0, 1_500_000));
                AtomicReference<Boolean> got = new AtomicReference<>();
                return seq(
                        h.spawn(seq(sleep(delay), act(event::signal), act(both::done))),
                        await(event, timeout, got::set),
                        WaitGroupTest.await(both),
                        act(() -> {
                            boolean stayed = event.test();
                            if (!got.get() && !stayed) {
                                lost.incrementAndGet();
                            }
                            if (got.get() && stayed) {
                                duplicated.incrementAndGet();
                            }
                        }));
            }));
            assertThat(lost).as("signals lost").hasValue(0);
            assertThat(duplicated).as("signals delivered twice").hasValue(0);
        }
    }

    /** A fiber cancelled while waiting takes no signal: the next signal reaches the next waiter. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void cancelledWaiterTakesNoSignal(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Event event = h.watch(new Event(Event.Mode.AUTO), Event::waiterCount);
            String result = h.runJob(event.await().start().flatMap(first ->
                    WaitGroupTest.untilWaiters(event::waiterCount, 1)
                            .then(event.await(Duration.ofDays(1)).start()).flatMap(second ->
                                    WaitGroupTest.untilWaiters(event::waiterCount, 2)
                                            .then(first.cancel())
                                            .then(Job.run(event::signal))
                                            .then(second.join())
                                            .flatMap(got -> first.outcome().map(o -> got + " " + o)))));
            assertThat(result).startsWith("true").contains("Cancelled");
            assertThat(event.isSignalled()).isFalse();
        }
    }

    /** A timed waiter cancelled while waiting leaves no timer and takes no signal. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void cancelledTimedWaiterLeavesNothing(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Event event = h.watch(new Event(Event.Mode.AUTO), Event::waiterCount);
            String outcome = h.runJob(event.await(Duration.ofDays(1)).start().flatMap(f ->
                    WaitGroupTest.untilWaiters(event::waiterCount, 1).then(f.cancel()).then(f.outcome()))
                    .map(Object::toString));
            assertThat(outcome).contains("Cancelled");
            event.signal();
            assertThat(event.isSignalled()).isTrue();
        }
    }

    /** Job.timeout around await(): the timed-out waiter is withdrawn and the signal stays. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void timeoutCombinatorWithdrawsTheWaiter(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Event event = h.watch(new Event(Event.Mode.AUTO), Event::waiterCount);
            String r = h.runJob(event.await().timeout(Duration.ofMillis(5)).attempt().map(Object::toString));
            assertThat(r).contains("TimeoutException");
            event.signal();
            assertThat(event.test()).isTrue();
        }
    }

    /** A thread interrupted in a timed wait is removed and takes no signal. */
    @Test
    void interruptedThreadTakesNoSignal() throws Exception {
        Event event = new Event(Event.Mode.AUTO);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                event.awaitBlocking(Duration.ofDays(1));
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        Patience.until(() -> event.waiterCount() == 1, "the thread to wait");
        t.interrupt();
        t.join(Patience.LONG.toMillis());
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        assertThat(event.waiterCount()).isZero();
        event.signal();
        assertThat(event.test()).isTrue();
    }

    /**
     * An event shared by two schedulers and a thread: every waiter is resumed, each fiber on its own
     * scheduler's threads.
     */
    @Test
    void sharedBetweenSchedulers() throws Exception {
        Event event = new Event(Event.Mode.MANUAL);
        try (Harness a = new Harness(Actors.on(SchedulerKind.WORKERS_2)); Harness b = new Harness(Actors.on(SchedulerKind.WORKERS_1))) {
            a.watch(event, Event::waiterCount);
            List<String> where = Collections.synchronizedList(new ArrayList<>());
            var fa = a.scheduler.submit(event.await().then(Job.of(() -> where.add("a:" + Thread.currentThread().getName()))));
            var fb = b.scheduler.submit(event.await().then(Job.of(() -> where.add("b:" + Thread.currentThread().getName()))));
            Thread t = new Thread(() -> {
                try {
                    event.awaitBlocking();
                    where.add("thread");
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            t.start();
            Patience.until(() -> event.waiterCount() == 3, "three waiters");
            event.signal();
            fa.get();
            fb.get();
            t.join();
            assertThat(where).hasSize(3).contains("thread");
            assertThat(where).filteredOn(s -> s.startsWith("a:")).singleElement().asString().contains("-worker-");
            String aThread = where.stream().filter(s -> s.startsWith("a:")).findFirst().orElseThrow();
            String bThread = where.stream().filter(s -> s.startsWith("b:")).findFirst().orElseThrow();
            assertThat(aThread.substring(2).replaceFirst("-worker-.*", ""))
                    .isNotEqualTo(bThread.substring(2).replaceFirst("-worker-.*", ""));
        }
    }
}
