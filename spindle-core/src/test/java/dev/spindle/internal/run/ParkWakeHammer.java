package dev.spindle.internal.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hammers the park/wake protocol of a multi-threaded {@link Engine}: in each round several plain threads
 * push work from outside at once, either when every worker is parked or after a random short spin, so
 * that pushes land anywhere in a worker's way from running to spinning to parked; every item must run
 * exactly once, or the round fails naming what was lost. Shared by the fast test and the stress test.
 *
 * <p>Items go either to the global queue ({@link Route#GLOBAL}) or into the inbox of one chosen worker
 * ({@link Route#INBOX}, how a direct body's resumption goes home), which must then run it on that worker.
 *
 * <p>Item counts and delays come from a seeded {@link Random}; every failure message carries the seed
 * (set {@code -Dspindle.test.seed=...} to replay it).
 */
final class ParkWakeHammer {
    /** How long a round may take before its items count as lost (a hang guard, not a timing assertion). */
    private static final long ROUND_TIMEOUT_SECONDS = 20L * Long.getLong("spindle.test.delayFactor", 1L);

    /** Where the producers push. */
    enum Route {
        /** {@link Engine#pushGlobal}: any worker may run the item. */
        GLOBAL,
        /** {@link Worker#pushInbox} of a worker chosen per item: only that worker may run it. */
        INBOX
    }

    private final int workers;
    private final int producers;
    private final long seed;
    private final Route route;

    ParkWakeHammer(int workers, int producers, long seed, Route route) {
        this.workers = workers;
        this.producers = producers;
        this.seed = seed;
        this.route = route;
    }

    /** The seed to use: {@code -Dspindle.test.seed} when given, else a fresh one. */
    static long seed() {
        return Long.getLong("spindle.test.seed", System.nanoTime());
    }

    /** A work item that counts its runs, and the runs on a worker other than the one it was handed to. */
    private static final class Counted extends Work {
        private final AtomicInteger runs;
        private final AtomicInteger misplaced;
        private final CountDownLatch done;
        /** The worker that must run it, or null for any. */
        private final Worker target;

        Counted(AtomicInteger runs, AtomicInteger misplaced, CountDownLatch done, Worker target) {
            this.runs = runs;
            this.misplaced = misplaced;
            this.done = done;
            this.target = target;
        }

        @Override
        public void doWork(Worker w) {
            if (target != null && w != target) {
                misplaced.incrementAndGet();
            }
            runs.incrementAndGet();
            done.countDown();
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            throw new AssertionError("a counting item cannot fail", e);
        }
    }

    /** Runs {@code rounds} rounds; fails on the first round that loses or duplicates an item. */
    void run(int rounds) throws Exception {
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        Engine engine = new Engine("park-wake-" + workers, workers, true, uncaught::add);
        Random random = new Random(seed);
        CyclicBarrier go = new CyclicBarrier(producers + 1);
        int[] perProducer = new int[1];
        int[] spins = new int[producers];
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger misplaced = new AtomicInteger();
        CountDownLatch[] done = new CountDownLatch[1];
        boolean[] stop = new boolean[1];
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int index = p;
            Thread t = new Thread(() -> {
                try {
                    while (true) {
                        go.await(); // the round's parameters were written before the barrier
                        if (stop[0]) {
                            return;
                        }
                        for (int i = spins[index]; i > 0; i--) {
                            Thread.onSpinWait();
                        }
                        int n = perProducer[0];
                        CountDownLatch latch = done[0];
                        for (int i = 0; i < n; i++) {
                            if (route == Route.GLOBAL) {
                                engine.pushGlobal(new Counted(runs, misplaced, latch, null));
                            } else {
                                Worker target = engine.workers[(index + i) % workers];
                                target.pushInbox(new Counted(runs, misplaced, latch, target));
                            }
                        }
                    }
                } catch (InterruptedException | BrokenBarrierException e) {
                    Thread.currentThread().interrupt();
                }
            }, "producer-" + p);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        try {
            awaitAllParked(engine, -1);
            for (int round = 0; round < rounds; round++) {
                boolean allParked = random.nextBoolean();
                if (allParked) {
                    awaitAllParked(engine, round);
                }
                for (int p = 0; p < producers; p++) {
                    spins[p] = allParked ? 0 : random.nextInt(2_000);
                }
                perProducer[0] = 1 + random.nextInt(3);
                int expected = producers * perProducer[0];
                runs.set(0);
                done[0] = new CountDownLatch(expected);
                go.await(ROUND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (!done[0].await(ROUND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    fail("lost wake-up (%s) in round %d (seed %d): %d of %d items never ran; idle count %d, workers %s,"
                                    + " global queue %s",
                            route, round, seed, done[0].getCount(), expected, engine.idleCount(), states(engine),
                            engine.hasGlobalWork() ? "not empty" : "empty");
                }
                assertThat(runs.get()).as("runs in round %d (seed %d)", round, seed).isEqualTo(expected);
            }
            awaitAllParked(engine, rounds); // every item has run: nothing ran twice since
            assertThat(runs.get()).as("runs in the last round, counted once all workers parked (seed %d)", seed)
                    .isEqualTo(producers * perProducer[0]);
        } finally {
            stop[0] = true;
            go.await(ROUND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(ROUND_TIMEOUT_SECONDS));
            }
            engine.close();
        }
        assertThat(misplaced.get()).as("inbox items run by another worker (seed %d)", seed).isZero();
        assertThat(uncaught).as("failures reported by the engine (seed %d)", seed).isEmpty();
        assertThat(engine.isQuiescent()).as("engine quiescent after close").isTrue();
    }

    /** Waits until every worker is parked: the state in which a lost wake-up leaves work stranded. */
    private void awaitAllParked(Engine engine, int round) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ROUND_TIMEOUT_SECONDS);
        while (engine.idleCount() != workers || engine.hasGlobalWork()) {
            if (System.nanoTime() - deadline > 0) {
                fail("workers never all parked before round %d (seed %d): idle count %d, workers %s",
                        round, seed, engine.idleCount(), states(engine));
            }
            Thread.yield();
        }
    }

    private static String states(Engine engine) {
        StringBuilder sb = new StringBuilder("[");
        for (Worker w : engine.workers) {
            sb.append(sb.length() > 1 ? ", " : "").append(w).append(" state=").append(w.state);
        }
        return sb.append(']').toString();
    }
}
