package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.Patience;
import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cancellation of fibers through their handles and the tree: what {@code cancel()} waits for, what a
 * cancelled fiber's joiner sees, which fibers a cancellation reaches (children, descendants of finished
 * parents) and which it does not (parents, detached fibers, children of a masked fiber until its region
 * ends). Complements {@code FiberTest} and {@code FinalizerTest}; every case runs on every scheduler kind.
 */
@Timeout(60)
class CancellationTest {
    private static final Duration SHORT = Patience.scale(Duration.ofMillis(20));

    /** Waits for a flag: the fiber equivalent of a latch, with no blocking primitive involved. */
    private static Job<Void> await(AtomicBoolean flag) {
        return TestJobs.awaitTrue(flag::get);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void theJoinerOfACancelledFiberMayRecoverAndIsNotCancelled(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean started = new AtomicBoolean();
            Job<String> joiner = TestJobs.signalThenForever(started).map(v -> "never").start()
                    .flatMap(f -> await(started).then(f.cancel()).then(f.join()))
                    .recover(e -> e instanceof CancellationException ? "recovered" : "wrong failure: " + e)
                    .flatMap(v -> Job.yieldNow().then(Job.sleep(Duration.ofMillis(1))).map(x -> v + ", went on"));
            Fiber<String> j = s.run(joiner.start());
            assertThat(s.run(j.join())).isEqualTo("recovered, went on");
            assertThat(j.isCancelRequested()).as("the joiner's cancellation flag").isFalse();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void isDoneIsFalseUntilTheFiberEndsInAnyWay(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean release = new AtomicBoolean();
            Fiber<Integer> running = s.run(await(release).then(Job.result(1)).start());
            Fiber<Integer> failing =
                    s.run(await(release).then(Job.<Integer>failure(new IllegalStateException())).start());
            Fiber<Integer> cancelling = s.run(await(release).then(Job.<Integer>cancelled()).start());
            List<Fiber<Integer>> all = List.of(running, failing, cancelling);
            for (Fiber<Integer> f : all) {
                assertThat(f.isDone()).as("%s before release", f).isFalse();
            }
            release.set(true);
            for (Fiber<Integer> f : all) {
                s.run(f.outcome());
                assertThat(f.isDone()).as("%s after its outcome", f).isTrue();
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancelReturnsOnlyAfterTheFibersSlowFinalizersHaveRun(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean started = new AtomicBoolean();
            List<String> done = new ArrayList<>();
            Job<Void> victim = TestJobs.signalThenForever(started)
                    .ensure(Job.sleep(SHORT).then(Job.run(() -> done.add("inner"))))
                    .onCancel(Job.yieldNow().then(Job.sleep(SHORT)).then(Job.run(() -> done.add("outer"))));
            List<String> seen = s.run(victim.start().flatMap(f -> await(started).then(f.cancel())
                    .then(Job.of(() -> List.copyOf(done)))));
            assertThat(seen).as("finalizers finished when cancel() returned").containsExactly("inner", "outer");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void manyConcurrentCancelsAllWaitAndTheFinalizerRunsOnce(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean started = new AtomicBoolean();
            AtomicInteger finalized = new AtomicInteger();
            Fiber<Void> victim = s.run(TestJobs.signalThenForever(started)
                    .ensure(Job.sleep(SHORT).then(TestJobs.increment(finalized))).start());
            kind.awaitDriving(s, started::get, "the victim to start");
            List<Job<Integer>> cancellers = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                cancellers.add(victim.cancel().then(Job.of(finalized::get)));
            }
            assertThat(s.run(Job.all(cancellers))).as("finalizer runs seen by each canceller when cancel() returned")
                    .containsOnly(1);
            assertThat(finalized).hasValue(1);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aChildThatEndsAtOnceLeavesItsBlockedSiblingLinkedAndCancellable(SchedulerKind kind) {
        // The second child runs to its end inside its start, while the parent waits on the worker's stack:
        // its retirement takes the plain-store path only when it is the parent's one live child, so the
        // blocked first child must stay counted and linked, and the parent's cancellation must reach it.
        kind.use(s -> {
            IVar<Void> never = new IVar<>("never");
            AtomicReference<Fiber<Void>> blocked = new AtomicReference<>();
            AtomicBoolean waiting = new AtomicBoolean();
            Job<Void> parent = never.read().start()
                    .flatMap(a -> {
                        blocked.set(a);
                        return Job.result(7).start();
                    })
                    .flatMap(Fiber::join)
                    .flatMap(seven -> {
                        waiting.set(seven == 7);
                        return never.read();
                    });
            Fiber<Void> p = s.run(parent.start());
            kind.awaitDriving(s, waiting::get, "the parent to join its second child and wait");
            FiberImpl<?> core = (FiberImpl<?>) p;
            // the joined child retires after its joiner resumes, maybe on another worker; the blocked one stays
            kind.awaitDriving(s, () -> core.liveChildren() == 1, "the joined child to retire, the blocked one not");
            assertThat(core.linkedChildren()).as("... and linked (the retired one may still be, above it)")
                    .isBetween(1, 2);
            s.run(p.cancel());
            assertThat(s.run(blocked.get().outcome())).as("the blocked child, after the parent's cancellation")
                    .isEqualTo(Outcome.cancelled());
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aFinishedParentLeavesItsChildrenRunning(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean release = new AtomicBoolean();
            AtomicReference<Fiber<String>> child = new AtomicReference<>();
            Job<String> parent = await(release).then(Job.result("child's value")).start()
                    .flatMap(c -> Job.run(() -> child.set(c)))
                    .then(Job.result("parent's value"));
            Fiber<String> p = s.run(parent.start());
            assertThat(s.run(p.join())).isEqualTo("parent's value");
            Fiber<String> c = child.get();
            assertThat(c.isDone()).as("the child still runs after its parent ended").isFalse();
            assertThat(c.isCancelRequested()).isFalse();
            assertThat(((FiberImpl<?>) p).liveChildren()).as("the finished parent keeps its live child").isEqualTo(1);
            assertThat(((FiberImpl<?>) p).linkedChildren()).as("... linked").isEqualTo(1);
            release.set(true);
            assertThat(s.run(c.join())).isEqualTo("child's value");
            FiberFixtures.awaitChildrenLetGo(kind, s, p);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingAnAncestorReachesTheChildrenOfAFinishedParent(SchedulerKind kind) {
        kind.use(s -> {
            AtomicInteger childrenStarted = new AtomicInteger();
            AtomicInteger childrenCancelled = new AtomicInteger();
            AtomicBoolean parentDone = new AtomicBoolean();
            Job<Void> child = Job.run(childrenStarted::incrementAndGet).then(Job.sleep(Await.LONG))
                    .onCancel(TestJobs.increment(childrenCancelled));
            // P starts two children and ends; G (P's parent) lives on until cancelled
            Job<Void> p = child.start().then(child.start()).then(Job.run(() -> parentDone.set(true)));
            Job<Void> g = p.start().then(TestJobs.forever());
            Fiber<Void> gf = s.run(g.start());
            kind.awaitDriving(s, () -> parentDone.get() && childrenStarted.get() == 2, "P to start both and end");
            assertThat(childrenCancelled).hasValue(0);
            s.run(gf.cancel());
            kind.awaitDriving(s, () -> childrenCancelled.get() == 2, "cancellation of G to reach P's children");
            FiberFixtures.awaitChildrenLetGo(kind, s, gf);
        });
    }

    /**
     * {@code shutdownNow()} cancels "every fiber still running (and its descendants)": that includes the
     * children of a root that has already finished. (The child sleeps 5 s, not forever, so that a failure
     * of this test costs 5 s rather than a hang in close().)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void shutdownNowReachesTheLiveChildrenOfAFinishedRoot(SchedulerKind kind) {
        UncaughtRecorder uncaught = new UncaughtRecorder();
        SchedulerFixture fixture = kind.open(uncaught);
        Scheduler s = fixture.scheduler();
        AtomicInteger cancelled = new AtomicInteger();
        Fiber<Void> child = s.run(Job.sleep(Duration.ofSeconds(5)).onCancel(TestJobs.increment(cancelled)).start());
        assertThat(child.isDone()).isFalse();
        s.shutdownNow();
        assertThat(((FiberImpl<?>) child).outcomeNow()).as("the child of the finished root").isEqualTo(Outcome.cancelled());
        assertThat(cancelled).hasValue(1);
        assertThat(s.engine.isQuiescent()).isTrue();
        fixture.close();
        uncaught.assertNone();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aDetachedFiberIsNotCancelledWithTheFiberThatStartedIt(SchedulerKind kind) {
        kind.use(s -> {
            AtomicInteger started = new AtomicInteger();
            AtomicReference<Fiber<Void>> detached = new AtomicReference<>();
            AtomicReference<Fiber<Void>> attached = new AtomicReference<>();
            Job<Void> body = Job.run(started::incrementAndGet).then(Job.sleep(Await.LONG));
            Job<Void> parent = body.startDetached().flatMap(d -> Job.run(() -> detached.set(d)))
                    .then(body.start()).flatMap(c -> Job.run(() -> attached.set(c)))
                    .then(TestJobs.forever());
            Fiber<Void> p = s.run(parent.start());
            kind.awaitDriving(s, () -> started.get() == 2 && attached.get() != null, "both children to start");
            s.run(p.cancel());
            assertThat(s.run(attached.get().outcome())).isEqualTo(Outcome.cancelled());
            Fiber<Void> d = detached.get();
            assertThat(d.isCancelRequested()).as("the detached fiber's cancellation flag").isFalse();
            assertThat(d.isDone()).isFalse();
            s.run(d.cancel());
            assertThat(s.run(d.outcome())).isEqualTo(Outcome.cancelled());
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void jobCancelledCancelsTheRunningFiberItsChildrenButNotItsParent(SchedulerKind kind) {
        kind.use(s -> {
            AtomicInteger after = new AtomicInteger();
            AtomicInteger finalized = new AtomicInteger();
            AtomicInteger childCancelled = new AtomicInteger();
            AtomicBoolean childStarted = new AtomicBoolean();
            Job<Void> child = TestJobs.signalThenForever(childStarted).onCancel(TestJobs.increment(childCancelled));
            Job<Integer> selfCancelling = child.start()
                    .then(await(childStarted))
                    .then(Job.<Integer>cancelled())
                    .then(Job.of(after::incrementAndGet))
                    .ensure(TestJobs.increment(finalized));
            Job<String> parent = selfCancelling.start().flatMap(f -> f.outcome().flatMap(o -> f.join()
                    .map(v -> "joined " + v)
                    .recover(e -> o + " / " + e.getClass().getSimpleName())));
            Fiber<String> pf = s.run(parent.start());
            assertThat(s.run(pf.join())).isEqualTo(Outcome.cancelled() + " / CancellationException");
            assertThat(pf.isCancelRequested()).as("the parent's flag").isFalse();
            assertThat(after).as("steps after Job.cancelled()").hasValue(0);
            assertThat(finalized).hasValue(1);
            kind.awaitDriving(s, () -> childCancelled.get() == 1, "the self-cancelled fiber's child to be cancelled");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aMaskedFiberCancelsItsChildrenOnlyWhenItsRegionEnds(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean inRegion = new AtomicBoolean();
            AtomicBoolean leave = new AtomicBoolean();
            AtomicBoolean childFlagInRegion = new AtomicBoolean(true);
            AtomicInteger childCancelled = new AtomicInteger();
            AtomicInteger afterRegion = new AtomicInteger();
            Job<Void> child = Job.sleep(Await.LONG).onCancel(TestJobs.increment(childCancelled));
            Job<Void> region = Job.uncancelable(child.start().flatMap(c -> Job.run(() -> inRegion.set(true))
                    .then(await(leave))
                    .then(Job.run(() -> childFlagInRegion.set(c.isCancelRequested())))));
            Job<Void> masked = region.then(TestJobs.increment(afterRegion));
            Fiber<Void> f = s.run(masked.start());
            kind.awaitDriving(s, inRegion::get, "the region to start");
            Fiber<Void> canceller = s.run(f.cancel().start());
            kind.awaitDriving(s, f::isCancelRequested, "the request");
            assertThat(canceller.isDone()).as("cancel() waits for the region to end").isFalse();
            leave.set(true);
            s.run(canceller.join());
            assertThat(childFlagInRegion.get()).as("the child was cancelled while the parent was masked").isFalse();
            assertThat(afterRegion).as("the step after the region").hasValue(0);
            assertThat(s.run(f.outcome())).isEqualTo(Outcome.cancelled());
            kind.awaitDriving(s, () -> childCancelled.get() == 1, "the child to be cancelled when the region ended");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aFiberThatJoinsOrAwaitsItsOwnCancellationFailsAtOnce(SchedulerKind kind) {
        kind.use(s -> {
            AtomicReference<Fiber<Object>> self = new AtomicReference<>();
            Job<Object> joinSelf =
                    TestJobs.awaitTrue(() -> self.get() != null).then(Job.defer(() -> self.get().join()));
            Fiber<Object> f = s.run(joinSelf.start());
            self.set(f);
            assertThat(s.run(f.outcome())).isInstanceOfSatisfying(Outcome.Failure.class, o -> assertThat(o.error())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("join itself"));

            AtomicReference<Fiber<Void>> me = new AtomicReference<>();
            Job<Void> cancelSelf = TestJobs.awaitTrue(() -> me.get() != null).then(Job.defer(() -> me.get().cancel()));
            Fiber<Void> g = s.run(cancelSelf.start());
            me.set(g);
            assertThat(s.run(g.outcome())).isInstanceOfSatisfying(Outcome.Failure.class, o -> assertThat(o.error())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("Job.cancelled()"));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellingAWideAndDeepTreeReachesEveryFiber(SchedulerKind kind) {
        kind.use(s -> {
            int width = 4;
            int depth = 5; // 4 + 16 + ... + 1024 = 1364 fibers below the root
            AtomicInteger started = new AtomicInteger();
            AtomicInteger cancelled = new AtomicInteger();
            Job<Void> own = Job.run(started::incrementAndGet).then(Job.sleep(Await.LONG))
                    .onCancel(TestJobs.increment(cancelled)); // what every fiber of the tree does itself
            Job<Void> level = own;
            int expected = 0;
            for (int d = 0, n = width; d < depth; d++, n *= width) {
                Job<Void> below = level;
                Job<Void> startAll = Job.unit();
                for (int i = 0; i < width; i++) {
                    startAll = startAll.then(below.start()).then(Job.unit());
                }
                level = startAll.then(own);
                expected += n;
            }
            int total = expected;
            Fiber<Void> root = s.run(level.start());
            kind.awaitDriving(s, () -> started.get() == total + 1, "every fiber to start");
            s.run(root.cancel());
            kind.awaitDriving(s, () -> cancelled.get() == total + 1, "cancellation to reach every fiber");
            kind.awaitDriving(s, () -> ((FiberImpl<?>) root).liveChildren() == 0, "the tree to retire");
        });
    }

    /**
     * A fiber whose cancellation lands after its last bind step's check, and which then joins a child that
     * cancellation has already ended, ends cancelled, as it would had it waited for the child. A fiber
     * cancelled before its first run, whose whole job is that join, makes the race deterministic.
     */
    @Test
    void aCancelledFiberJoiningAChildItsCancellationEndedEndsCancelled() {
        SchedulerKind.SINGLE_THREADED.use(s -> {
            Fiber<Integer> child = s.run(Alt.<Integer>never().start());
            s.run(child.cancel());
            FiberImpl<Integer> joiner = new FiberImpl<>(child.join(), s.engine, null, false);
            joiner.requestCancel(null);
            s.engine.externalFiberStarted();
            s.engine.pushGlobal(joiner);
            assertThat(s.run(joiner.outcome())).isEqualTo(Outcome.cancelled());
        });
    }
}
