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
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** marl's pool_test under every {@link Actors} kind, plus waiting, factory failures and cancellation. */
class PoolTest {
    /** Borrows, runs {@code use} with the item, releases: the job form, or borrowBlocking/try-with-resources. */
    static <T> Step borrow(Pool<T> pool, Consumer<T> use) {
        return new Step() {
            @Override
            public Job<Void> job() {
                return pool.withItem(item -> Job.run(() -> use.accept(item)));
            }

            @Override
            public void block() throws Exception {
                try (Pool.Loan<T> loan = pool.borrowBlocking()) {
                    use.accept(loan.get());
                }
            }
        };
    }

    /** marl CtorDtorCounter: counts items made and returned. */
    static final class Counted {
        static final AtomicInteger MADE = new AtomicInteger();
        static final AtomicInteger RETURNED = new AtomicInteger();
        final int id = MADE.incrementAndGet();

        static void reset() {
            MADE.set(0);
            RETURNED.set(0);
        }
    }

    /** marl UnboundedPool_ConstructDestruct / BoundedPool_ConstructDestruct: making a pool makes no items. */
    @Test
    void constructingMakesNoItems() {
        Counted.reset();
        Pool<Counted> unbounded = Pool.unbounded(Counted::new);
        Pool<Counted> bounded = Pool.bounded(10, Counted::new);
        assertThat(Counted.MADE).hasValue(0);
        assertThat(unbounded.capacity()).isEqualTo(Integer.MAX_VALUE);
        assertThat(bounded.capacity()).isEqualTo(10);
        assertThat(bounded.available()).isEqualTo(10);
        assertThat(bounded.toString()).startsWith("Pool@").contains("capacity=10, preserve, free=10");
    }

    /** marl UnboundedPool_Borrow / BoundedPool_Borrow: 100 borrows in a row. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void borrowInARow(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Pool<int[]> unbounded = h.watch(Pool.unbounded(() -> new int[1]), Pool::waiterCount);
            Pool<int[]> bounded = h.watch(Pool.bounded(100, () -> new int[1]), Pool::waiterCount);
            h.run(repeat(100, i -> seq(borrow(unbounded, x -> x[0]++), borrow(bounded, x -> x[0]++))));
            assertThat(bounded.available()).isEqualTo(100);
            assertThat(unbounded.available()).as("one item kept, reused 100 times").isEqualTo(1);
        }
    }

    /** marl UnboundedPool_ConcurrentBorrow / BoundedPool_ConcurrentBorrow: 10,000 concurrent borrowers. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void concurrentBorrow(Actors mode) {
        try (Harness h = new Harness(mode)) {
            int n = mode.scale(10_000, 200);
            Pool<int[]> unbounded = h.watch(Pool.unbounded(() -> new int[1]), Pool::waiterCount);
            Pool<int[]> bounded = h.watch(Pool.bounded(10, () -> new int[1]), Pool::waiterCount);
            WaitGroup wg = h.watch(new WaitGroup(n), WaitGroup::waiterCount);
            h.run(seq(
                    repeat(n, i -> h.spawn(seq(borrow(unbounded, x -> { }), borrow(bounded, x -> { }), act(wg::done)))),
                    WaitGroupTest.await(wg)));
            assertThat(bounded.available()).isEqualTo(10);
        }
    }

    /** A bounded pool never lends more than its capacity at once, and lends each item to one holder at a time. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void boundedNeverOverlends(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Pool<AtomicInteger> pool = h.watch(Pool.bounded(3, AtomicInteger::new), Pool::waiterCount);
            AtomicInteger lent = new AtomicInteger();
            AtomicInteger maxLent = new AtomicInteger();
            AtomicInteger shared = new AtomicInteger();
            Set<AtomicInteger> items = ConcurrentHashMap.newKeySet();
            int actors = mode.scale(12, 8);
            h.run(repeat(actors, a -> h.spawn(repeat(40, r -> borrow(pool, item -> {
                items.add(item);
                maxLent.accumulateAndGet(lent.incrementAndGet(), Math::max);
                if (item.incrementAndGet() != 1) {
                    shared.incrementAndGet();
                }
                Thread.yield();
                item.decrementAndGet();
                lent.decrementAndGet();
            })))));
            assertThat(maxLent.get()).isBetween(1, 3);
            assertThat(shared).as("items lent to two holders at once").hasValue(0);
            assertThat(items).as("made lazily, at most capacity").hasSizeBetween(1, 3);
        }
    }

    /** marl *_PolicyReconstruct: an item per loan, each returned item dropped (after onReturn). */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void policyReconstruct(Actors mode) {
        for (boolean bounded : new boolean[] {false, true}) {
            Counted.reset();
            try (Harness h = new Harness(mode)) {
                Pool.Builder<Counted> b = Pool.builder(Counted::new).policy(Pool.Policy.RECONSTRUCT)
                        .onReturn(c -> Counted.RETURNED.incrementAndGet());
                Pool<Counted> pool = h.watch((bounded ? b.bounded(2) : b).build(), Pool::waiterCount);
                List<Integer> ids = new ArrayList<>();
                h.run(repeat(3, i -> borrow(pool, c -> ids.add(c.id))));
                assertThat(ids).containsExactly(1, 2, 3);
                assertThat(Counted.MADE).hasValue(3);
                assertThat(Counted.RETURNED).hasValue(3);
                assertThat(pool.available()).isEqualTo(bounded ? 2 : 0);
            }
        }
    }

    /** marl *_PolicyPreserve: items made once and reused; onReturn resets them each time. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void policyPreserve(Actors mode) {
        for (boolean bounded : new boolean[] {false, true}) {
            Counted.reset();
            try (Harness h = new Harness(mode)) {
                Pool.Builder<Counted> b = Pool.builder(Counted::new).onReturn(c -> Counted.RETURNED.incrementAndGet());
                Pool<Counted> pool = h.watch((bounded ? b.bounded(2) : b).build(), Pool::waiterCount);
                List<Integer> ids = new ArrayList<>();
                h.run(repeat(3, i -> borrow(pool, c -> ids.add(c.id))));
                assertThat(ids).containsExactly(1, 1, 1);
                assertThat(Counted.MADE).hasValue(1);
                assertThat(Counted.RETURNED).hasValue(3);
            }
        }
    }

    /** A failing factory fails that borrow and gives its place back; the next borrow tries again. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void failingFactoryGivesThePlaceBack(Actors mode) {
        try (Harness h = new Harness(mode)) {
            AtomicInteger calls = new AtomicInteger();
            Pool<String> pool = h.watch(Pool.bounded(1, () -> {
                if (calls.incrementAndGet() == 1) {
                    throw new IllegalStateException("factory down");
                }
                return calls.get() == 2 ? null : "item";
            }), Pool::waiterCount);
            List<String> seen = new ArrayList<>();
            Step attempt = new Step() {
                @Override
                public Job<Void> job() {
                    return pool.withItem(s -> Job.run(() -> seen.add(s))).recover(e -> {
                        seen.add(e.getMessage());
                        return null;
                    });
                }

                @Override
                public void block() throws Exception {
                    try (Pool.Loan<String> loan = pool.borrowBlocking()) {
                        seen.add(loan.get());
                    } catch (RuntimeException e) {
                        seen.add(e.getMessage());
                    }
                }
            };
            h.run(repeat(3, i -> attempt));
            assertThat(seen).hasSize(3);
            assertThat(seen.get(0)).isEqualTo("factory down");
            assertThat(seen.get(1)).contains("returned null");
            assertThat(seen.get(2)).isEqualTo("item");
            assertThat(pool.available()).isEqualTo(1);
        }
    }

    @Test
    void loansAndMisuse() {
        Pool<StringBuilder> pool = Pool.bounded(1, StringBuilder::new);
        Pool.Loan<StringBuilder> loan = pool.tryBorrow();
        assertThat(loan).isNotNull();
        assertThat(pool.tryBorrow()).isNull();
        loan.get().append("x");
        loan.release();
        loan.release(); // no effect
        assertThat(loan.isReleased()).isTrue();
        assertThatThrownBy(loan::get).isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
        assertThat(pool.available()).isEqualTo(1);
        try (Pool.Loan<StringBuilder> again = pool.tryBorrow()) {
            assertThat(again.get()).hasToString("x"); // preserved, no onReturn
        }
        assertThatThrownBy(() -> Pool.bounded(0, Object::new)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Pool.bounded(-3, Object::new)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Pool.unbounded(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> pool.withItem(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Pool.builder(Object::new).policy(null)).isInstanceOf(NullPointerException.class);
    }

    /** A failing onReturn drops the item (its state is unknown), frees its place, and reports the failure. */
    @Test
    void failingOnReturn() {
        AtomicInteger made = new AtomicInteger();
        Pool<Integer> pool = Pool.builder(made::incrementAndGet).bounded(1).onReturn(i -> {
            throw new IllegalArgumentException("reset failed");
        }).build();
        Pool.Loan<Integer> loan = pool.tryBorrow();
        assertThatThrownBy(loan::release).hasMessage("reset failed");
        assertThat(pool.available()).isEqualTo(1);
        assertThat(pool.tryBorrow().get()).as("a new item, not the dropped one").isEqualTo(2);
    }

    /**
     * Cancellation leaves the pool as it found it: withItem jobs on a bounded pool, a random half cancelled at
     * random moments; afterwards every place is free and nobody waits.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void cancellationLeavesThePoolAsItWas(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Pool<int[]> pool = h.watch(Pool.bounded(2, () -> new int[1]), Pool::waiterCount);
            SplittableRandom random = new SplittableRandom(11);
            Job<Void> round = Job.defer(() -> {
                List<Job<Fiber<Integer>>> starts = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    starts.add(pool.withItem(x -> Job.sleep(Duration.ofNanos(20_000)).then(Job.of(() -> ++x[0]))).start());
                }
                for (int i = 0; i < 3; i++) {
                    starts.add(pool.borrow().flatMap(l -> Job.yieldNow().then(Job.of(() -> {
                        l.release();
                        return 0;
                    }))).start());
                }
                return Job.all(starts).flatMap(fibers -> {
                    Job<Void> chain = Job.unit();
                    for (Fiber<Integer> f : fibers.subList(0, 8)) {
                        if (random.nextBoolean()) {
                            chain = chain.then(random.nextBoolean() ? Job.yieldNow() : Job.unit()).then(f.cancel());
                        }
                    }
                    for (Fiber<Integer> f : fibers) {
                        chain = chain.then(f.outcome().then(Job.unit()));
                    }
                    return chain;
                });
            });
            Job<Void> all = Job.unit();
            for (int i = 0; i < 40; i++) {
                all = all.then(round);
            }
            h.runJob(all);
            assertThat(pool.available()).isEqualTo(2);
        }
    }

    /** A thread interrupted while waiting to borrow takes nothing. */
    @Test
    void interruptedBorrowerTakesNothing() throws Exception {
        Pool<Object> pool = Pool.bounded(1, Object::new);
        Pool.Loan<Object> held = pool.tryBorrow();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                pool.borrowBlocking();
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        Patience.until(() -> pool.waiterCount() == 1, "the thread to wait");
        t.interrupt();
        t.join(Patience.LONG.toMillis());
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        held.release();
        assertThat(pool.available()).isEqualTo(1);
        assertThat(pool.waiterCount()).isZero();
    }

    /** Borrowers wait in arrival order; a loan made by a fiber is usable by another (it is not fiber-bound). */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void waitersServedInArrivalOrder(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Pool<Object> pool = h.watch(Pool.bounded(1, Object::new), Pool::waiterCount);
            StringBuffer order = new StringBuffer();
            AtomicReference<Pool.Loan<Object>> held = new AtomicReference<>();
            h.run(seq(
                    act(() -> held.set(pool.tryBorrow())),
                    repeat(3, i -> seq(
                            h.spawn(borrow(pool, x -> order.append(i))),
                            Step.until(() -> pool.waiterCount() == i + 1, "borrower " + i))),
                    act(() -> held.get().release()),
                    yieldNow()));
            assertThat(order).hasToString("012");
        }
    }
}
