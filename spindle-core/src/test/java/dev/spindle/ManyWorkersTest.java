package dev.spindle;

import static dev.spindle.CommJobs.repeat;
import static dev.spindle.TestJobs.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.Patience;
import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sixty-four workers on whatever cores the machine has (two on the project's machines), so that every shared
 * point of the runtime (docs/many-cores.md) is touched by many threads and the holders of its spin locks are
 * preempted in their critical sections: a skynet-like fork/join tree (global queue, idle count, sharing,
 * the cancellation tree's counts), channel ping-pong between fibers and many fibers on one channel (a
 * channel's lock), sleeps and timeouts (the one timer queue and its thread) and cancellation of blocked trees,
 * also racing with their completion (the tree walk, blockers' locks). Each checks exact results, and the
 * fixture's close checks that no fiber, timer or thread is left. Correctness under contention, not speed:
 * nothing here is timed. The default lane runs each at a small size; the stress lane at a larger one
 * ({@link StressScale}).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ManyWorkersTest {
    private static final SchedulerKind KIND = SchedulerKind.WORKERS_64;

    /** The seed of the random choices (sleep lengths, which leaves finish first): printed by a failure. */
    private static final long SEED = Long.getLong("spindle.test.seed", System.nanoTime());

    /** The sizes of one run of the four workloads. */
    private record Sizes(int skynetLeaves, int pairs, int rounds, int sleepers, int sleeps, int treeWidth,
                         int treeDepth) {
    }

    /** About a second on two loaded cores. */
    private static final Sizes SMALL = new Sizes(10_000, 64, 50, 256, 3, 4, 3);

    @Test
    void everyWorkloadAtASmallSize() {
        runAll(SMALL);
    }

    @Test
    @Tag("stress")
    void everyWorkloadAtAStressSize() {
        runAll(new Sizes(skynetSize(StressScale.of(1_000_000)), 256, StressScale.of(2_000), StressScale.of(4_096),
                10, 6, 4));
    }

    private static void runAll(Sizes z) {
        try (SchedulerFixture f = KIND.open()) {
            assertThat(f.scheduler().workerCount()).isEqualTo(64);
            skynet(f, z.skynetLeaves());
            pingPongPairs(f, z.pairs(), z.rounds());
            oneChannelManyParties(f, z.pairs(), z.rounds());
            sleepsAndTimeouts(f, z.sleepers(), z.sleeps());
            cancelBlockedTree(f, z.treeWidth(), z.treeDepth());
            cancelRacingCompletion(f, z.treeWidth(), z.treeDepth());
        }
    }

    /** The power of ten nearest below {@code n}, at least 10: skynet's tree has ten children per node. */
    private static int skynetSize(int n) {
        int size = 10;
        while (size * 10L <= n) {
            size *= 10;
        }
        return size;
    }

    // ---------------------------------------------------------------- fork/join

    /** Skynet: a tree of ten children per node, each leaf giving its number; the root sums 0 .. leaves-1. */
    private static void skynet(SchedulerFixture f, int leaves) {
        long sum = f.run(skynetNode(0, leaves));
        assertThat(sum).as("skynet over %d leaves", leaves).isEqualTo((long) leaves * (leaves - 1) / 2);
    }

    private static Job<Long> skynetNode(long num, int size) {
        if (size == 1) {
            return Job.result(num);
        }
        int part = size / 10;
        List<Fiber<Long>> children = new ArrayList<>(10);
        return repeat(10, i -> skynetNode(num + (long) i * part, part).start().map(children::add))
                .then(Job.defer(() -> sumJoins(children, 0, 0L)));
    }

    private static Job<Long> sumJoins(List<Fiber<Long>> children, int i, long acc) {
        if (i == children.size()) {
            return Job.result(acc);
        }
        return children.get(i).join().flatMap(v -> sumJoins(children, i + 1, acc + v));
    }

    // ---------------------------------------------------------------- channels

    /**
     * {@code pairs} pairs of fibers, each on channels of its own: one sends 0 .. rounds-1 and sums the
     * replies, the other answers each value plus one.
     */
    private static void pingPongPairs(SchedulerFixture f, int pairs, int rounds) {
        List<Job<Long>> sides = new ArrayList<>(2 * pairs);
        for (int p = 0; p < pairs; p++) {
            Channel<Long> ping = new Channel<>("ping-" + p);
            Channel<Long> pong = new Channel<>("pong-" + p);
            AtomicLong replies = new AtomicLong();
            sides.add(repeat(rounds, i -> ping.give((long) i).then(pong.take()).map(replies::addAndGet))
                    .map(v -> replies.get()));
            sides.add(repeat(rounds, i -> ping.take().flatMap(x -> pong.give(x + 1))).map(v -> 0L));
        }
        List<Long> results = f.run(Job.all(sides));
        long expected = (long) rounds * (rounds + 1) / 2;
        for (int p = 0; p < pairs; p++) {
            assertThat(results.get(2 * p)).as("replies summed by pair %d", p).isEqualTo(expected);
        }
    }

    /**
     * {@code parties} givers and as many takers on one channel, each value distinct: every value is taken
     * exactly once, and each taker takes exactly {@code rounds}.
     */
    private static void oneChannelManyParties(SchedulerFixture f, int parties, int rounds) {
        Channel<Integer> ch = new Channel<>("shared");
        int values = parties * rounds;
        AtomicIntegerArray taken = new AtomicIntegerArray(values);
        List<Job<Integer>> sides = new ArrayList<>(2 * parties);
        for (int g = 0; g < parties; g++) {
            int base = g * rounds;
            sides.add(repeat(rounds, i -> ch.give(base + i)).map(v -> 0));
            AtomicInteger mine = new AtomicInteger();
            sides.add(repeat(rounds, i -> ch.take().map(x -> {
                taken.incrementAndGet(x);
                return mine.incrementAndGet();
            })).map(v -> mine.get()));
        }
        List<Integer> results = f.run(Job.all(sides));
        for (int t = 0; t < parties; t++) {
            assertThat(results.get(2 * t + 1)).as("values taken by taker %d", t).isEqualTo(rounds);
        }
        for (int v = 0; v < values; v++) {
            assertThat(taken.get(v)).as("times value %d was taken", v).isEqualTo(1);
        }
        assertThat(ch.waitingGivers() + ch.waitingTakers()).isZero();
    }

    // ---------------------------------------------------------------- timers

    /**
     * {@code sleepers} fibers, each sleeping {@code sleeps} times for 0-3 ms, then running one timeout that
     * fires and one that does not (its timer must be cancelled: the fixture fails on a pending timer).
     */
    private static void sleepsAndTimeouts(SchedulerFixture f, int sleepers, int sleeps) {
        SplittableRandom random = new SplittableRandom(SEED);
        AtomicInteger slept = new AtomicInteger();
        AtomicInteger fired = new AtomicInteger();
        AtomicInteger beaten = new AtomicInteger();
        List<Job<Void>> fibers = new ArrayList<>(sleepers);
        for (int s = 0; s < sleepers; s++) {
            long[] millis = random.longs(sleeps + 1, 0, 4).toArray();
            fibers.add(repeat(sleeps, i -> Job.sleep(Duration.ofMillis(millis[i])).then(TestJobs.increment(slept)))
                    .then(TestJobs.forever().timeout(Duration.ofMillis(1 + millis[sleeps]))
                            .recover(e -> {
                                assertThat(e).isInstanceOf(TimeoutException.class);
                                fired.incrementAndGet();
                                return null;
                            }))
                    .then(Job.result(7).timeout(Duration.ofHours(1)).map(v -> {
                        assertThat(v).isEqualTo(7);
                        beaten.incrementAndGet();
                        return null;
                    })));
        }
        f.run(Job.all(fibers));
        assertThat(slept.get()).as("sleeps completed (seed %d)", SEED).isEqualTo(sleepers * sleeps);
        assertThat(fired.get()).as("timeouts that fired (seed %d)", SEED).isEqualTo(sleepers);
        assertThat(beaten.get()).as("timeouts beaten by their job (seed %d)", SEED).isEqualTo(sleepers);
    }

    // ---------------------------------------------------------------- cancellation

    /**
     * A tree of {@code width} children per node, {@code depth} levels, whose leaves block forever on a
     * channel: once every leaf waits, cancelling the root cancels every fiber once, leaves withdrawn from the
     * channel, and nothing is left waiting on it.
     */
    private static void cancelBlockedTree(SchedulerFixture f, int width, int depth) {
        int leaves = pow(width, depth);
        int fibers = treeFibers(width, depth);
        Channel<Void> never = new Channel<>("never");
        AtomicInteger waiting = new AtomicInteger();
        AtomicInteger cancelled = new AtomicInteger();
        Job<Void> leaf = Job.run(waiting::incrementAndGet).then(never.take());
        Job<Void> tree = tree(width, depth, leaf, cancelled);
        Outcome<Void> outcome = f.run(tree.start().flatMap(root ->
                awaitTrue(() -> waiting.get() == leaves).then(root.cancel()).then(root.outcome())));
        assertThat(outcome).as("root outcome").isInstanceOf(Outcome.Cancelled.class);
        awaitNoLiveFiber(f); // a cancelled parent ends before its cancelled children do
        assertThat(cancelled.get()).as("onCancel finalizers run (every fiber of the tree, once)").isEqualTo(fibers);
        assertThat(never.waitingTakers()).as("takers left on the channel").isZero();
    }

    /**
     * The same tree whose leaves finish on their own after a random number of yields, cancelled after a
     * random number of yields of its own: no leaf both finished and was cancelled, a tree that succeeded
     * finished every leaf, and the root's finalizer ran once. (A leaf cancelled between taking its number
     * and entering its region records neither.)
     */
    private static void cancelRacingCompletion(SchedulerFixture f, int width, int depth) {
        SplittableRandom random = new SplittableRandom(SEED + 1);
        int leaves = pow(width, depth);
        int[] yields = random.ints(leaves, 0, 64).toArray();
        int cancelAfter = random.nextInt(64);
        AtomicInteger leafIds = new AtomicInteger();
        AtomicIntegerArray ended = new AtomicIntegerArray(leaves); // 1 finished, 2 cancelled, more: both
        AtomicInteger finalizers = new AtomicInteger();
        Job<Void> leaf = Job.defer(() -> {
            int id = leafIds.getAndIncrement();
            return repeat(yields[id], i -> Job.yieldNow())
                    .then(Job.run(() -> ended.addAndGet(id, 1)))
                    .onCancel(Job.run(() -> ended.addAndGet(id, 2)));
        });
        Job<Void> tree = tree(width, depth, leaf, new AtomicInteger());
        Outcome<Void> outcome = f.run(tree.ensure(TestJobs.increment(finalizers)).start().flatMap(root ->
                repeat(cancelAfter, i -> Job.yieldNow()).then(root.cancel()).then(root.outcome())));
        awaitNoLiveFiber(f);
        assertThat(finalizers.get()).as("the root's finalizer runs").isEqualTo(1);
        assertThat(outcome.isSuccess() || (outcome instanceof Outcome.Cancelled)).as("root outcome %s", outcome).isTrue();
        int started = leafIds.get();
        assertThat(started).as("leaves started").isLessThanOrEqualTo(leaves);
        for (int id = 0; id < started; id++) {
            assertThat(ended.get(id)).as("leaf %d: 1 finished, 2 cancelled (seed %d, outcome %s)", id, SEED, outcome)
                    .isIn(outcome.isSuccess() ? new Object[] {1} : new Object[] {0, 1, 2});
        }
        if (outcome.isSuccess()) {
            assertThat(started).as("a tree that succeeded ran every leaf (seed %d)", SEED).isEqualTo(leaves);
        }
    }

    /** Waits until every fiber of the scheduler has ended, the descendants of a cancelled root included. */
    private static void awaitNoLiveFiber(SchedulerFixture f) {
        Patience.until(() -> f.scheduler().metrics().liveFibers() == 0, "every fiber of the tree to end");
    }

    /** Each node starts {@code width} children, joins them, and counts its cancellation in {@code cancelled}. */
    private static Job<Void> tree(int width, int depth, Job<Void> leaf, AtomicInteger cancelled) {
        Job<Void> body;
        if (depth == 0) {
            body = leaf;
        } else {
            Job<Void> child = tree(width, depth - 1, leaf, cancelled);
            body = Job.defer(() -> {
                List<Fiber<Void>> children = new ArrayList<>(width);
                return repeat(width, i -> child.start().map(children::add))
                        .then(Job.defer(() -> repeat(width, i -> children.get(i).join())));
            });
        }
        return body.onCancel(TestJobs.increment(cancelled));
    }

    /** Fibers started by {@link #tree}, the root's own fiber included. */
    private static int treeFibers(int width, int depth) {
        int n = 0;
        for (int d = 0; d <= depth; d++) {
            n += pow(width, d);
        }
        return n;
    }

    private static int pow(int base, int exp) {
        int n = 1;
        for (int i = 0; i < exp; i++) {
            n *= base;
        }
        return n;
    }
}
