package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Job;
import dev.spindle.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** Virtual time: the blog's timeout examples, long sleeps, and explicit advancing. */
class VirtualTimeSimTest {

    /** Blog example: a 1 s delay under a 3 s timeout completes at T0 + 1 s. */
    @Test
    void delayWithinTimeoutCompletesWhenTheDelayEnds() {
        Simulation sim = Simulation.create();
        Instant t0 = sim.now();

        String v = sim.run(Job.sleep(Duration.ofSeconds(1)).map(x -> "done").timeout(Duration.ofSeconds(3)));

        assertThat(v).isEqualTo("done");
        assertThat(sim.now()).isEqualTo(t0.plusSeconds(1));
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(1));
    }

    /** Blog example: a 5 s delay under a 3 s timeout fails with TimeoutException at T0 + 3 s. */
    @Test
    void delayBeyondTimeoutFailsWhenTheTimeoutEnds() {
        Simulation sim = Simulation.create();
        Instant t0 = sim.now();

        Outcome<String> o = sim.runOutcome(
                Job.sleep(Duration.ofSeconds(5)).map(x -> "done").timeout(Duration.ofSeconds(3)));

        assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class,
                f -> assertThat(f.error()).isInstanceOf(TimeoutException.class));
        assertThat(sim.now()).isEqualTo(t0.plusSeconds(3));
        assertThat(sim.liveFibers()).isZero();
    }

    /** An hour of sleeping takes an hour of virtual time and leaves no timer behind. */
    @Test
    void oneHourSleepFinishesInVirtualTime() {
        Simulation sim = Simulation.create();

        sim.run(Job.sleep(Duration.ofHours(1)));

        assertThat(sim.elapsed()).isEqualTo(Duration.ofHours(1));
        assertThat(sim.isDeadlocked()).isFalse();
    }

    /** Job.now() inside the simulation reads the virtual clock. */
    @Test
    void jobsSeeTheVirtualClock() {
        Simulation sim = Simulation.create();
        Instant t0 = sim.now();

        Instant inside = sim.run(Job.sleep(Duration.ofMinutes(2)).then(Job.now()));

        assertThat(Duration.between(t0, inside)).isEqualTo(Duration.ofMinutes(2));
    }

    /** start() only schedules; advance() runs what falls due on the way, in time order, and stops at the target. */
    @Test
    void advanceRunsDueWorkInTimeOrder() {
        Simulation sim = Simulation.create();
        List<String> log = new ArrayList<>();
        SimFiber<Void> slow = sim.start(Job.sleep(Duration.ofSeconds(10)).then(Job.run(() -> log.add("slow"))));
        SimFiber<Void> fast = sim.start(Job.sleep(Duration.ofSeconds(2)).then(Job.run(() -> log.add("fast"))));
        assertThat(log).isEmpty();

        sim.advance(Duration.ofSeconds(5));

        assertThat(log).containsExactly("fast");
        assertThat(fast.isDone()).isTrue();
        assertThat(slow.isDone()).isFalse();
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(5));

        slow.join();
        assertThat(log).containsExactly("fast", "slow");
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(10));
    }

    /** runUntilIdle runs what is runnable now and leaves time alone. */
    @Test
    void runUntilIdleDoesNotMoveTime() {
        Simulation sim = Simulation.create();
        List<String> log = new ArrayList<>();
        sim.start(Job.run(() -> log.add("now")).then(Job.sleep(Duration.ofSeconds(1)))
                .then(Job.run(() -> log.add("later"))));

        sim.runUntilIdle();

        assertThat(log).containsExactly("now");
        assertThat(sim.elapsed()).isZero();
        assertThat(sim.blockedFibers()).singleElement()
                .satisfies(f -> assertThat(f.waitsOn()).contains("timer"));
    }

    /** A failing job's failure is rethrown by run, as Scheduler.run does. */
    @Test
    void runRethrowsFailures() {
        Simulation sim = Simulation.create();

        assertThatThrownBy(() -> sim.run(Job.failure(new IllegalStateException("boom"))))
                .isInstanceOf(IllegalStateException.class).hasMessage("boom");
    }

    /** Negative durations are refused. */
    @Test
    void advanceRefusesNegativeDurations() {
        assertThatThrownBy(() -> Simulation.create().advance(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
    }
}
