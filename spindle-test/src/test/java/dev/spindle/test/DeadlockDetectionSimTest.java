package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Fiber;
import dev.spindle.Job;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Deadlock detection: run() and close() throw DeadlockException instead of waiting forever. */
class DeadlockDetectionSimTest {

    /**
     * Joins the fiber whose handle is published in {@code handles[i]}, yielding until it is: a started
     * child runs before its starter gets the handle.
     */
    static Job<Void> joinPublished(Fiber<?>[] handles, int i) {
        return Job.defer(() -> handles[i] == null
                ? Job.yieldNow().then(joinPublished(handles, i))
                : handles[i].join().then(Job.unit()));
    }

    /** Two fibers that join each other. */
    @Test
    void twoFibersJoiningEachOther() {
        Simulation sim = Simulation.create();
        Fiber<?>[] handles = new Fiber<?>[2];
        Job<Void> first = joinPublished(handles, 1).named("first");
        Job<Void> second = joinPublished(handles, 0).named("second");

        assertThatThrownBy(() -> sim.run(first.start().flatMap(f -> {
            handles[0] = f;
            return second.start();
        }).flatMap(g -> {
            handles[1] = g;
            return g.join();
        })))
                .isInstanceOfSatisfying(DeadlockException.class, e -> {
                    assertThat(e.blocked()).extracting(BlockedFiber::label)
                            .containsExactly("fiber-1", "fiber-2 \"first\"", "fiber-3 \"second\"");
                    assertThat(e.getMessage()).contains("fiber-2 \"first\" waits on join of fiber-3 \"second\"",
                            "cycle:", "replay: Simulation.replay(\"seed:0\")");
                    assertThat(e.elapsed()).isZero();
                });
        assertThat(sim.isDeadlocked()).isTrue();
    }

    /** Waiting for a job that waits on nothing that can ever happen is reported, with virtual time. */
    @Test
    void fiberWaitingForAForgottenFiber() {
        Simulation sim = Simulation.create();
        Fiber<?>[] self = new Fiber<?>[1];
        Job<Void> waitsForItsParent = Job.sleep(Duration.ofSeconds(2)).then(joinPublished(self, 0)).named("child");
        Job<Void> parent = waitsForItsParent.start().flatMap(Fiber::join).named("parent");

        assertThatThrownBy(() -> sim.run(parent.start().flatMap(p -> {
            self[0] = p;
            return p.join();
        }))).isInstanceOfSatisfying(DeadlockException.class, e -> {
            assertThat(e.elapsed()).isEqualTo(Duration.ofSeconds(2));
            assertThat(e.getMessage()).startsWith("deadlock at t=2s under schedule seed:0");
        });
    }

    /** A fiber waiting in race/all is reported as waiting for its children. */
    @Test
    void waitingInAllIsReportedAsWaitingForChildren() {
        Simulation sim = Simulation.create();
        Fiber<?>[] stuck = new Fiber<?>[1];
        Job<Void> forever = joinPublished(stuck, 0).named("forever");
        Job<List<Void>> both = Job.all(List.of(forever, Job.unit().named("quick"))).named("parent");

        assertThatThrownBy(() -> sim.run(both.start().flatMap(f -> {
            stuck[0] = f;
            return f.join();
        }))).isInstanceOfSatisfying(DeadlockException.class, e ->
                assertThat(e.getMessage()).contains("\"parent\" waits on its children fiber-3 \"forever\""));
    }

    /** close() drives until every fiber has finished, and reports fibers that never can: a leak check. */
    @Test
    void closeReportsLeakedFibers() {
        Simulation sim = Simulation.create();
        Fiber<?>[] handles = new Fiber<?>[2];
        sim.run(joinPublished(handles, 1).named("leaked-a").startDetached().map(f -> handles[0] = f)
                .then(joinPublished(handles, 0).named("leaked-b").startDetached().map(f -> handles[1] = f)));

        assertThatThrownBy(sim::close).isInstanceOfSatisfying(DeadlockException.class, e ->
                assertThat(e.blocked()).extracting(BlockedFiber::name).containsExactly("leaked-a", "leaked-b"));
    }

    /** close() of a healthy simulation runs pending timers to the end. */
    @Test
    void closeRunsPendingWork() {
        Simulation sim = Simulation.create();
        int[] done = {0};
        sim.start(Job.sleep(Duration.ofMinutes(5)).then(Job.run(() -> done[0]++)));

        sim.close();

        assertThat(done[0]).isEqualTo(1);
        assertThat(sim.elapsed()).isEqualTo(Duration.ofMinutes(5));
        assertThat(sim.isDeadlocked()).isFalse();
    }

    /** A fiber that spins forever hits the step limit instead of hanging the test. */
    @Test
    void spinningFiberHitsTheStepLimit() {
        Simulation sim = Simulation.builder().maxSteps(1_000).build();
        boolean[] flag = {false};
        Job<Void> spin = spinUntil(flag);

        assertThatThrownBy(() -> sim.run(spin)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("exceeded 1000 steps");
    }

    private static Job<Void> spinUntil(boolean[] flag) {
        return Job.defer(() -> flag[0] ? Job.unit() : Job.yieldNow().then(spinUntil(flag)));
    }

    /** Failures nobody observes are collected, and make an exploration fail. */
    @Test
    void uncaughtFailuresAreCollectedAndFailExploration() {
        Scenario forgetful = sim -> sim.run(Job.failure(new IllegalStateException("lost")).forget());

        Simulation sim = Simulation.create();
        assertThat(sim.runOutcome(Job.failure(new IllegalStateException("lost")).forget()).isSuccess()).isTrue();
        sim.runUntilIdle();
        assertThat(sim.uncaughtFailures()).singleElement().satisfies(e -> assertThat(e).hasMessage("lost"));
        assertThat(sim.trace().toString()).contains("uncaught failure: java.lang.IllegalStateException: lost");

        ExplorationReport report = Simulation.explore(10, 1, forgetful);
        assertThat(report.failed()).isTrue();
        assertThat(report.failure()).hasMessageContaining("nobody observed").hasCauseInstanceOf(IllegalStateException.class);
    }
}
