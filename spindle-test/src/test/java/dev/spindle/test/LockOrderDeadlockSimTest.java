package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Job;
import dev.spindle.sync.Mutex;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Planted bug 2: a lock-order deadlock between two {@link Mutex}es. One transfer locks a then b, the
 * other b then a; when each holds its first lock and wants its second, both wait forever. Exploration
 * reports it as a {@link DeadlockException} naming both fibers and the lock each waits on.
 */
class LockOrderDeadlockSimTest {

    /** Transfer: lock first, do some work (a yield), lock second; release both. */
    private static Job<Void> transfer(Simulation sim, Mutex first, Mutex second, int warmUp) {
        Job<Void> prelude = Job.unit();
        for (int i = 0; i < warmUp; i++) {
            prelude = prelude.then(Job.yieldNow());
        }
        return prelude.then(first.withLock(Job.run(() -> sim.note("holds " + first)).then(Job.yieldNow())
                .then(second.withLock(Job.run(() -> sim.note("holds both"))))));
    }

    /** Two transfers in opposite lock order, run together. */
    static final Scenario OPPOSITE_ORDER = sim -> {
        Mutex a = new Mutex("a");
        Mutex b = new Mutex("b");
        sim.run(Job.all(List.of(transfer(sim, a, b, 0).named("transfer a->b"),
                transfer(sim, b, a, 2).named("transfer b->a"))));
    };

    /** Scheduling order happens to let one transfer finish before the other starts locking. */
    @Test
    void schedulingOrderHidesTheDeadlock() throws Exception {
        Simulation sim = Simulation.create();
        OPPOSITE_ORDER.run(sim);
        assertThat(sim.liveFibers()).isZero();
    }

    /** Exploration reports the deadlock, naming both transfers and the mutex each waits on. */
    @Test
    void explorationReportsTheDeadlockNamingBothFibers() {
        ExplorationReport report = Simulation.explore(1_000, 42, OPPOSITE_ORDER);
        System.out.println(report);

        assertThat(report.failed()).isTrue();
        assertThat(report.failure()).isInstanceOf(DeadlockException.class);
        DeadlockException deadlock = (DeadlockException) report.failure();
        assertThat(deadlock.blocked()).extracting(BlockedFiber::name)
                .contains("transfer a->b", "transfer b->a");
        assertThat(deadlock.getMessage())
                .contains("\"transfer a->b\" waits on Mutex \"b\"")
                .contains("\"transfer b->a\" waits on Mutex \"a\"")
                .contains("under schedule " + report.replayToken());
        assertThat(deadlock.schedule()).isEqualTo(report.replayToken());
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
            assertThat(sim.blockedFibers()).hasSizeGreaterThanOrEqualTo(2);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
