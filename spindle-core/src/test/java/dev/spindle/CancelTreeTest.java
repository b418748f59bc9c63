package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cancellation tree neither leaks nor over-reaches: children that finish unlink themselves from a
 * long-lived parent (a million of them leave its child list empty, and it stays bounded meanwhile), and
 * cancelling a child never cancels its parent, while cancelling an ancestor reaches every live descendant.
 */
@Timeout(120)
class CancelTreeTest {
    private static final int MILLION = 1_000_000;

    /**
     * Runs {@code body} as a fiber P started from the root, hands P its own handle (through {@code self})
     * before the body starts, and gives P's handle once P has ended.
     */
    static Fiber<Void> runAsParent(Scheduler s, Function<AtomicReference<Fiber<Void>>, Job<Void>> body) {
        AtomicReference<Fiber<Void>> self = new AtomicReference<>();
        Job<Void> parent = TestJobs.awaitTrue(() -> self.get() != null).then(Job.defer(() -> body.apply(self)));
        return s.run(parent.start().flatMap(p -> Job.run(() -> self.set(p)).then(p.join()).map(v -> p)));
    }

    /** Starts and joins children one after the other until {@code ran} reaches {@code n}. */
    private static Job<Void> sequentialChildren(int n, AtomicReference<Fiber<Void>> self, AtomicInteger maxLinked,
            AtomicInteger ran) {
        Job<Void> child = Job.run(ran::incrementAndGet);
        return Job.defer(() -> {
            if (ran.get() >= n) {
                return Job.unit();
            }
            maxLinked.accumulateAndGet(((FiberImpl<?>) self.get()).linkedChildren(), Math::max);
            return child.start().flatMap(Fiber::join).then(sequentialChildren(n, self, maxLinked, ran));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void aMillionSequentialChildrenLeaveTheParentWithoutChildren(SchedulerKind kind) {
        kind.use(s -> checkSequential(kind, s, MILLION));
    }

    @Test
    void aMillionSequentialChildrenOnTwoWorkersLeaveTheParentWithoutChildren() {
        SchedulerKind.WORKERS_2.use(s -> checkSequential(SchedulerKind.WORKERS_2, s, MILLION));
    }

    private static void checkSequential(SchedulerKind kind, Scheduler s, int n) {
        AtomicInteger maxLinked = new AtomicInteger();
        AtomicInteger ran = new AtomicInteger();
        Fiber<Void> parent = runAsParent(s, self -> sequentialChildren(n, self, maxLinked, ran));
        assertThat(ran).hasValue(n);
        FiberFixtures.awaitChildrenLetGo(kind, s, parent);
        assertThat(maxLinked.get()).as("largest child list while running (one child at a time)")
                .isLessThanOrEqualTo(4);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aMillionChildrenInBatchesLeaveTheParentWithoutChildren(SchedulerKind kind) {
        int batch = 1000;
        int batches = kind.workers() > 2 ? 100 : MILLION / batch; // many workers on few cores: a tenth is enough
        kind.use(s -> {
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger maxLinked = new AtomicInteger();
            Job<Void> child = Job.run(ran::incrementAndGet);
            Fiber<Void> parent = runAsParent(s, self -> batches(batches, batch, child, self, maxLinked));
            assertThat(ran).hasValue(batches * batch);
            FiberFixtures.awaitChildrenLetGo(kind, s, parent);
            assertThat(maxLinked.get()).as("largest child list after a batch was joined")
                    .isLessThanOrEqualTo(2 * batch);
        });
    }

    /**
     * Once a parent lets go of its retired children, they no longer link each other: a Fiber handle kept
     * after the join would otherwise keep every older sibling reachable (the timers benchmark kept 600,000
     * finished fibers alive through one stale reference).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void retiredChildrenLetGoOfTheirSiblings(SchedulerKind kind) {
        int n = 1000;
        kind.use(s -> {
            IVar<Void> gate = new IVar<>();
            Job<Void> child = gate.read(); // all children live at once: each links the older ones
            List<Fiber<Void>> children = s.run(startAll(child, n, new ArrayList<>(n))
                    .flatMap(fibers -> gate.fill(null).then(joinAll(fibers, 0)).map(v -> fibers)));
            kind.awaitDriving(s, () -> children.stream().allMatch(f -> ((FiberImpl<?>) f).olderSibling() == null),
                    "every child of the finished parent to drop its sibling link");
            assertThat(children).hasSize(n);
        });
    }

    private static Job<Void> batches(int left, int size, Job<Void> child, AtomicReference<Fiber<Void>> self,
            AtomicInteger maxLinked) {
        if (left == 0) {
            return Job.unit();
        }
        return startAll(child, size, new ArrayList<>(size))
                .flatMap(fibers -> joinAll(fibers, 0))
                .then(Job.defer(() -> {
                    maxLinked.accumulateAndGet(((FiberImpl<?>) self.get()).linkedChildren(), Math::max);
                    return batches(left - 1, size, child, self, maxLinked);
                }));
    }

    private static Job<List<Fiber<Void>>> startAll(Job<Void> child, int n, List<Fiber<Void>> acc) {
        if (acc.size() == n) {
            return Job.result(acc);
        }
        return child.start().flatMap(f -> {
            acc.add(f);
            return startAll(child, n, acc);
        });
    }

    private static Job<Void> joinAll(List<Fiber<Void>> fibers, int i) {
        return i == fibers.size() ? Job.unit() : fibers.get(i).join().then(Job.defer(() -> joinAll(fibers, i + 1)));
    }

    /**
     * A long-lived parent that always has a few children running (a sliding window: start one, join the
     * oldest) never returns to "no live child", so retired children can only be trimmed around live ones;
     * its child list must stay proportional to its live children, not to all children it ever started.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aParentThatAlwaysHasLiveChildrenKeepsItsChildListBounded(SchedulerKind kind) {
        int window = 8;
        int total = 200_000;
        kind.use(s -> {
            AtomicInteger maxLinked = new AtomicInteger();
            AtomicInteger ran = new AtomicInteger();
            Job<Void> child = Job.yieldNow().then(Job.run(ran::incrementAndGet));
            Fiber<Void> parent = runAsParent(s, self -> slidingWindow(total, window, child, new ArrayDeque<>(),
                    self, maxLinked));
            assertThat(ran).hasValue(total);
            FiberFixtures.awaitChildrenLetGo(kind, s, parent);
            assertThat(maxLinked.get())
                    .as("largest child list of a parent with at most %d live children (%d started)", window, total)
                    .isLessThanOrEqualTo(4 * window + 16);
        });
    }

    private static Job<Void> slidingWindow(int left, int window, Job<Void> child, ArrayDeque<Fiber<Void>> inFlight,
            AtomicReference<Fiber<Void>> self, AtomicInteger maxLinked) {
        return Job.defer(() -> {
            if (left % 1024 == 0) { // linkedChildren() walks the list: sample it, don't make the test quadratic
                maxLinked.accumulateAndGet(((FiberImpl<?>) self.get()).linkedChildren(), Math::max);
            }
            if (left == 0 && inFlight.isEmpty()) {
                return Job.unit();
            }
            if (left > 0 && inFlight.size() < window) {
                return child.start().flatMap(f -> {
                    inFlight.addLast(f);
                    return slidingWindow(left - 1, window, child, inFlight, self, maxLinked);
                });
            }
            return inFlight.removeFirst().join().then(slidingWindow(left, window, child, inFlight, self, maxLinked));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingAChildNeverCancelsItsParent(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean started = new AtomicBoolean();
            AtomicInteger grandchildCancelled = new AtomicInteger();
            Job<Void> grandchild = Job.sleep(Await.LONG).onCancel(TestJobs.increment(grandchildCancelled));
            Job<Void> child = grandchild.start().then(TestJobs.signalThenForever(started));
            Job<String> parent = child.start().flatMap(c -> TestJobs.awaitTrue(started::get)
                    .then(c.cancel())
                    .then(c.outcome())
                    .flatMap(o -> {
                        assertThat(o).as("the child's outcome").isEqualTo(Outcome.cancelled());
                        return Job.yieldNow();
                    })
                    .then(Job.sleep(Duration.ofMillis(1)))
                    .then(Job.result("parent went on")));
            Fiber<String> p = s.run(parent.start());
            assertThat(s.run(p.join())).isEqualTo("parent went on");
            assertThat(p.isCancelRequested()).as("the parent's cancellation flag").isFalse();
            kind.awaitDriving(s, () -> grandchildCancelled.get() == 1, "the grandchild's onCancel");
            FiberFixtures.awaitChildrenLetGo(kind, s, p);
        });
    }

    /**
     * A chain of fibers, each the only child of the previous one and each finishing at once, stays linked
     * (every finished link has a live descendant), so cancelling the top reaches the bottom; once the bottom
     * ends, every link retires.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingTheTopOfAChainOfFinishedParentsReachesTheLiveLeaf(SchedulerKind kind) {
        int depth = 1000;
        kind.use(s -> {
            AtomicBoolean leafStarted = new AtomicBoolean();
            AtomicInteger leafCancelled = new AtomicInteger();
            // a leaf that outlives any wait of the test, but not the test run, should cancellation not reach it
            Job<Void> leaf = Job.run(() -> leafStarted.set(true)).then(Job.sleep(Await.LONG))
                    .onCancel(TestJobs.increment(leafCancelled));
            Job<Void> chain = leaf;
            for (int i = 0; i < depth; i++) {
                chain = chain.start().then(Job.unit()); // starts the level below, then finishes at once
            }
            Fiber<Void> top = s.run(chain.start());
            try {
                kind.awaitDriving(s, leafStarted::get, "the leaf to start");
                kind.awaitDriving(s, top::isDone, "the top to finish its own job");
                assertThat(((FiberImpl<?>) top).liveChildren()).as("the top's live child (the next level)").isEqualTo(1);
                assertThat(leafCancelled).hasValue(0);
            } finally {
                s.run(top.cancel()); // also on failure: shutdownNow reaches only live roots
            }
            kind.awaitDriving(s, () -> leafCancelled.get() == 1, "cancellation to reach the leaf");
            FiberFixtures.awaitChildrenLetGo(kind, s, top);
        });
    }
}
