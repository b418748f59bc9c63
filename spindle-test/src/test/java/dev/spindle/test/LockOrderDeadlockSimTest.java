package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Fiber;
import dev.spindle.Job;
import org.junit.jupiter.api.Test;

/**
 * Planted bug 2: a lock-order deadlock. One transfer locks a then b, the other b then a; when each holds
 * its first lock and wants its second, both wait forever. Exploration reports it as a
 * {@link DeadlockException} naming both fibers.
 *
 * <p>TODO(issue 6): switch to {@code dev.spindle.sync.Mutex} once it is committed. Until then the locks
 * are {@link JoinLock}s, built from what the core has: a lock is released when its owner finishes, and a
 * fiber waits for it by joining the owner, so a lock-order cycle is a cycle of joins. The Mutex version,
 * checked against the Mutex in progress (found at schedule 24 of base seed 42):
 * <pre>{@code
 * static Job<Void> transfer(Simulation sim, Mutex first, Mutex second, int warmUp) {
 *     Job<Void> prelude = Job.unit();
 *     for (int i = 0; i < warmUp; i++) {
 *         prelude = prelude.then(Job.yieldNow());
 *     }
 *     return prelude.then(first.withLock(Job.run(() -> sim.note("holds " + first)).then(Job.yieldNow())
 *             .then(second.withLock(Job.run(() -> sim.note("holds both"))))));
 * }
 * static final Scenario OPPOSITE_ORDER = sim -> {
 *     Mutex a = new Mutex("a");
 *     Mutex b = new Mutex("b");
 *     sim.run(Job.all(List.of(transfer(sim, a, b, 0).named("transfer a->b"),
 *             transfer(sim, b, a, 2).named("transfer b->a"))));
 * };
 * // DeadlockException message:
 * //   fiber-2 "transfer a->b" waits on Mutex "b"[locked by fiber-3 "transfer b->a", waiters=1]
 * //   fiber-3 "transfer b->a" waits on Mutex "a"[locked by fiber-2 "transfer a->b", waiters=1]
 * }</pre>
 */
class LockOrderDeadlockSimTest {

    /**
     * A lock released when the fiber holding it finishes. Owners are fiber numbers whose handles the
     * root publishes in {@code handles}; a waiter yields until the owner's handle is published.
     */
    static final class JoinLock {
        private final String name;
        private final Fiber<?>[] handles;
        /** Index of the owner in handles, or -1. */
        private int owner = -1;

        JoinLock(String name, Fiber<?>[] handles) {
            this.name = name;
            this.handles = handles;
        }

        /** Acquires the lock for fiber {@code me}: takes it when free, else waits for the owner to finish. */
        Job<Void> lock(Simulation sim, int me) {
            return Job.defer(() -> {
                if (owner < 0 || handles[owner].isDone()) {
                    owner = me;
                    sim.note("locked " + name);
                    return Job.unit();
                }
                Fiber<?> holder = handles[owner];
                Job<Void> waitForOwner = holder == null ? Job.yieldNow() : holder.outcome().then(Job.unit());
                return waitForOwner.then(lock(sim, me));
            });
        }
    }

    /** Transfer {@code me}: lock first, do some work (a yield), lock second; both released at its end. */
    private static Job<Void> transfer(Simulation sim, int me, JoinLock first, JoinLock second, int warmUp) {
        Job<Void> prelude = Job.unit();
        for (int i = 0; i < warmUp; i++) {
            prelude = prelude.then(Job.yieldNow());
        }
        return prelude.then(first.lock(sim, me)).then(Job.yieldNow()).then(second.lock(sim, me));
    }

    /** Two transfers in opposite lock order, started as fibers 0 and 1; the root joins both. */
    static final Scenario OPPOSITE_ORDER = sim -> {
        Fiber<?>[] handles = new Fiber<?>[2];
        JoinLock a = new JoinLock("a", handles);
        JoinLock b = new JoinLock("b", handles);
        Job<Void> ab = transfer(sim, 0, a, b, 0).named("transfer a->b");
        Job<Void> ba = transfer(sim, 1, b, a, 2).named("transfer b->a");
        sim.run(ab.start().flatMap(f0 -> {
            handles[0] = f0;
            return ba.start().flatMap(f1 -> {
                handles[1] = f1;
                return f0.join().then(f1.join());
            });
        }).named("main"));
    };

    /** Scheduling order happens to let one transfer finish before the other starts locking. */
    @Test
    void schedulingOrderHidesTheDeadlock() throws Exception {
        Simulation sim = Simulation.create();
        OPPOSITE_ORDER.run(sim);
        assertThat(sim.liveFibers()).isZero();
    }

    /** Exploration reports the deadlock, naming both transfers, what each waits on, and the cycle. */
    @Test
    void explorationReportsTheDeadlockNamingBothFibers() {
        ExplorationReport report = Simulation.explore(1_000, 42, OPPOSITE_ORDER);
        System.out.println(report);

        assertThat(report.failed()).isTrue();
        assertThat(report.failure()).isInstanceOf(DeadlockException.class);
        DeadlockException deadlock = (DeadlockException) report.failure();
        assertThat(deadlock.blocked()).extracting(BlockedFiber::name)
                .containsExactly("main", "transfer a->b", "transfer b->a");
        assertThat(deadlock.blocked()).extracting(BlockedFiber::toString).containsExactly(
                "fiber-1 \"main\" waits on join of fiber-2 \"transfer a->b\"",
                "fiber-2 \"transfer a->b\" waits on join of fiber-3 \"transfer b->a\"",
                "fiber-3 \"transfer b->a\" waits on join of fiber-2 \"transfer a->b\"");
        assertThat(deadlock.getMessage())
                .contains("cycle: fiber-2 \"transfer a->b\" -> fiber-3 \"transfer b->a\" -> fiber-2 \"transfer a->b\"")
                .contains("under schedule " + report.replayToken());
        assertThat(deadlock.schedule()).isEqualTo(report.replayToken());
        assertThat(report.toString()).contains("\"transfer a->b\": locked a", "\"transfer b->a\": locked b");
    }

    /** The replayed schedule deadlocks again, and the simulation says so. */
    @Test
    void replayDeadlocksAgain() {
        String token = Simulation.explore(1_000, 42, OPPOSITE_ORDER).replayToken();
        Simulation sim = Simulation.replay(token);
        try {
            OPPOSITE_ORDER.run(sim);
            throw new AssertionError("expected a deadlock under " + token);
        } catch (DeadlockException expected) {
            assertThat(sim.isDeadlocked()).isTrue();
            assertThat(sim.blockedFibers()).hasSize(3);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
