package dev.spindle.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Alt;
import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every waiting operation of every sync primitive is an {@link Alt} with a channel's rules: instantiated in
 * order, committed atomically with taking the resource, a losing or cancelled wait takes nothing (no lock,
 * no permit, no loan, an AUTO event stays signalled), and its nack fires; on every fiber {@link Mode}.
 */
class SyncChooseTest {
    /** Long enough never to fire in a test: the alternative that must not win. */
    private static final Duration NEVER = Duration.ofDays(1);

    /** One primitive's wait, and how a test makes it ready, observes it and sees what it took. */
    private record Case(String name, Function<Harness, Subject> make) {
        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * A primitive under test. {@code op} is the wait; {@code blockIt} makes it not ready; {@code grant} makes
     * it ready again (one grant); {@code taken} holds when the resource the op takes is taken (after one
     * grant); {@code untouched} holds when it is not; {@code waiters} counts live waiters.
     */
    private record Subject(Alt<?> op, Runnable blockIt, Runnable grant, BooleanSupplier taken,
                           BooleanSupplier untouched, IntSupplier waiters) {
    }

    static Stream<Arguments> cases() {
        List<Case> cases = List.of(
                new Case("Mutex.lock", h -> {
                    Mutex m = h.watch(new Mutex("m"), Mutex::waiterCount);
                    return new Subject(m.lock(), m::tryLock, m::unlock, m::isLocked, () -> !m.isLocked(),
                            m::waiterCount);
                }),
                new Case("Semaphore.acquire", h -> {
                    Semaphore s = h.watch(new Semaphore(1, "s"), Semaphore::waiterCount);
                    return new Subject(s.acquire(), s::tryAcquire, s::release, () -> s.availablePermits() == 0,
                            () -> s.availablePermits() == 1, s::waiterCount);
                }),
                new Case("Event(AUTO).await", h -> {
                    Event e = h.watch(new Event(Event.Mode.AUTO, true, "auto"), Event::waiterCount);
                    return new Subject(e.await(), e::clear, e::signal, () -> !e.isSignalled(), e::isSignalled,
                            e::waiterCount);
                }),
                new Case("Event(MANUAL).await", h -> {
                    Event e = h.watch(new Event(Event.Mode.MANUAL, true, "manual"), Event::waiterCount);
                    return new Subject(e.await(), e::clear, e::signal, e::isSignalled, e::isSignalled,
                            e::waiterCount);
                }),
                new Case("WaitGroup.await", h -> {
                    WaitGroup wg = h.watch(new WaitGroup(0, "wg"), WaitGroup::waiterCount);
                    return new Subject(wg.await(), () -> wg.add(1), wg::done, () -> wg.count() == 0,
                            () -> wg.count() == 0, wg::waiterCount);
                }),
                new Case("Ticket.await", h -> {
                    Ticket.Queue q = new Ticket.Queue("tickets");
                    AtomicReference<Ticket> before = new AtomicReference<>();
                    Ticket[] mine = {q.take()};
                    h.watch(mine, t -> t[0].waiterCount());
                    Alt<Void> op = Alt.guard(Job.of(() -> mine[0].await()));
                    return new Subject(op, () -> {
                        Ticket b = q.take();
                        mine[0].done(); // b's turn now; the new ticket waits for b
                        before.set(b);
                        mine[0] = q.take();
                    }, () -> before.get().done(), () -> mine[0].isCalled(), () -> mine[0].isCalled(),
                            () -> mine[0].waiterCount());
                }),
                new Case("Pool.borrow", h -> {
                    Pool<StringBuilder> p = h.watch(Pool.bounded(1, StringBuilder::new), Pool::waiterCount);
                    AtomicReference<Pool.Loan<StringBuilder>> held = new AtomicReference<>();
                    return new Subject(p.borrow().wrap(loan -> {
                        held.set(loan);
                        return loan;
                    }), () -> held.set(p.tryBorrow()), () -> held.getAndSet(null).release(),
                            () -> p.available() == 0 && held.get() != null, () -> p.available() == 1,
                            p::waiterCount);
                }));
        return Stream.of(Mode.values()).filter(Mode::fibers)
                .flatMap(mode -> cases.stream().map(c -> Arguments.of(mode, c)));
    }

    /** Ready when instantiated, first in order: committed, and it took the resource. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void readyAtOnceIsCommittedAndTakes(Mode mode, Case c) {
        try (Harness h = new Harness(mode)) {
            Subject s = c.make().apply(h);
            String got = h.runJob(Alt.choose(s.op().wrap(v -> "op"), Alt.always("other")));
            assertThat(got).isEqualTo("op");
            assertThat(s.taken().getAsBoolean()).as("resource taken").isTrue();
            release(h, s);
        }
    }

    /** An earlier alternative ready at once: this wait is never instantiated and takes nothing. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void anEarlierReadyAlternativeWinsAndTheWaitTakesNothing(Mode mode, Case c) {
        try (Harness h = new Harness(mode)) {
            Subject s = c.make().apply(h);
            String got = h.runJob(Alt.choose(Alt.always("other"), s.op().wrap(v -> "op")));
            assertThat(got).isEqualTo("other");
            assertThat(s.untouched().getAsBoolean()).as("resource untouched").isTrue();
        }
    }

    /**
     * Not ready: the wait registers, a later alternative wins; the grant that follows skips the stale waiter
     * and the resource stays with the primitive; the wait's nack is ready.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void aWaitThatLosesTakesNothingAndItsNackFires(Mode mode, Case c) {
        try (Harness h = new Harness(mode)) {
            Subject s = c.make().apply(h);
            s.blockIt().run();
            AtomicReference<Alt<Void>> nack = new AtomicReference<>();
            Alt<String> offered = Alt.withNack(n -> {
                nack.set(n);
                return Job.result(s.op().wrap(v -> "op"));
            });
            String got = h.runJob(Alt.choose(offered, Alt.after(Duration.ofMillis(1)).wrap(v -> "timeout")));
            assertThat(got).isEqualTo("timeout");
            assertThat(h.runJob(Alt.choose(nack.get().wrap(v -> "nacked"), Alt.always("not yet"))))
                    .isEqualTo("nacked");
            assertThat(s.waiters().getAsInt()).as("live waiters").isZero();
            s.grant().run();
            assertThat(s.untouched().getAsBoolean()).as("resource untouched after the grant").isTrue();
        }
    }

    /** A wait that committed: its nack never becomes ready. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void aWaitThatWinsHasNoNack(Mode mode, Case c) {
        try (Harness h = new Harness(mode)) {
            Subject s = c.make().apply(h);
            AtomicReference<Alt<Void>> nack = new AtomicReference<>();
            Alt<String> offered = Alt.withNack(n -> {
                nack.set(n);
                return Job.result(s.op().wrap(v -> "op"));
            });
            assertThat(h.runJob(Alt.choose(offered, Alt.after(NEVER).wrap(v -> "timeout")))).isEqualTo("op");
            assertThat(h.runJob(Alt.choose(nack.get().wrap(v -> "nacked"), Alt.always("not"))))
                    .isEqualTo("not");
            release(h, s);
        }
    }

    /** Waiting in a choose, then granted: the grant commits the waiter's choose, and it takes the resource. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void aWaitingAlternativeIsGrantedAndTakes(Mode mode, Case c) {
        try (Harness h = new Harness(mode)) {
            Subject s = c.make().apply(h);
            s.blockIt().run();
            Fiber<String> chooser = h.runJob(Alt.choose(s.op().wrap(v -> "op"),
                    Alt.after(NEVER).wrap(v -> "timeout")).start());
            h.runJob(Step.until(() -> s.waiters().getAsInt() == 1, "the chooser to wait").job());
            s.grant().run();
            assertThat(h.runJob(chooser.join())).isEqualTo("op");
            assertThat(s.taken().getAsBoolean()).as("resource taken").isTrue();
            release(h, s);
        }
    }

    /** A chooser cancelled while it waits withdraws and takes nothing, even from a later grant. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void aCancelledChooserTakesNothing(Mode mode, Case c) {
        try (Harness h = new Harness(mode)) {
            Subject s = c.make().apply(h);
            s.blockIt().run();
            Fiber<Object> chooser = h.runJob(Alt.<Object>choose(s.op(), Alt.never()).start());
            h.runJob(Step.until(() -> s.waiters().getAsInt() == 1, "the chooser to wait").job());
            h.runJob(chooser.cancel());
            assertThat(h.runJob(chooser.outcome())).isInstanceOf(Outcome.Cancelled.class);
            assertThat(s.waiters().getAsInt()).as("live waiters").isZero();
            s.grant().run();
            assertThat(s.untouched().getAsBoolean()).as("resource untouched after the grant").isTrue();
        }
    }

    /** Gives back what a winning wait took, so the leak check sees the primitive as it began. */
    private static void release(Harness h, Subject s) {
        if (s.taken().getAsBoolean() && !s.untouched().getAsBoolean()) {
            s.grant().run();
        }
    }

    static Stream<Mode> fiberModes() {
        return Stream.of(Mode.values()).filter(Mode::fibers);
    }

    /** The example, {@code choose(mutex.lock(), shutdown.await(), after(50 ms))}, in its three outcomes. */
    @ParameterizedTest
    @MethodSource("fiberModes")
    void lockOrShutdownOrTimeout(Mode mode) {
        Supplier<Harness> harness = () -> new Harness(mode);
        for (String outcome : List.of("locked", "shutdown", "timeout")) {
            try (Harness h = harness.get()) {
                Mutex mutex = h.watch(new Mutex("mutex"), Mutex::waiterCount);
                Event shutdown = h.watch(new Event(Event.Mode.AUTO, false, "shutdown"), Event::waiterCount);
                if (!outcome.equals("locked")) {
                    assertThat(mutex.tryLock()).isTrue(); // held by someone else
                }
                if (outcome.equals("shutdown")) {
                    shutdown.signal();
                }
                Job<String> choice = Alt.choose(
                        mutex.lock().wrap(v -> "locked"),
                        shutdown.await().map(x -> (Void) null).wrap(v -> "shutdown"),
                        Alt.after(Duration.ofMillis(50)).wrap(v -> "timeout"));
                assertThat(h.runJob(choice)).isEqualTo(outcome);
                assertThat(mutex.isLocked()).as("mutex locked").isTrue(); // by the chooser, or still by the other
                mutex.unlock();
                assertThat(mutex.isLocked()).as("a losing lock() took nothing").isFalse();
                assertThat(shutdown.isSignalled()).as("the signal is consumed only by a committed wait").isFalse();
            }
        }
    }
}
