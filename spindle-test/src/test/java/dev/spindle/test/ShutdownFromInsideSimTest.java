package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Stopping the simulated scheduler from one of its own fibers behaves as on the real kinds: {@code close()}
 * throws at once, {@code shutdown()} lets the fibers finish and the scheduler terminates after the last,
 * {@code shutdownNow()} cancels every fiber, the caller included, and returns at once.
 */
class ShutdownFromInsideSimTest {
    private static final Duration LATER = Duration.ofSeconds(1);

    @Test
    void closeFromAFiberThrowsAndLeavesTheSimulationOpen() {
        Simulation sim = Simulation.create();
        Scheduler s = sim.scheduler();
        Outcome<Void> outcome = sim.runOutcome(Job.run(s::close));
        assertThat(outcome).isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("shutdown()"));
        assertThat(s.isClosed()).isFalse();
        sim.close();
    }

    @Test
    void shutdownFromAFiberLetsTheOthersFinishInVirtualTimeThenTerminates() {
        Simulation sim = Simulation.create();
        Scheduler s = sim.scheduler();
        AtomicInteger finished = new AtomicInteger();
        sim.start(Job.sleep(LATER).then(Job.run(finished::incrementAndGet)));
        sim.run(Job.run(s::shutdown));
        assertThat(s.isClosed()).isTrue();
        assertThat(s.isTerminated()).as("a fiber is still sleeping").isFalse();
        sim.advance(LATER);
        assertThat(finished).hasValue(1);
        assertThat(s.isTerminated()).isTrue();
        assertThat(sim.elapsed()).isEqualTo(LATER);
    }

    @Test
    void shutdownNowFromAFiberCancelsEveryFiberAndReturnsAtOnce() {
        Simulation sim = Simulation.create();
        Scheduler s = sim.scheduler();
        AtomicInteger cancelled = new AtomicInteger();
        AtomicBoolean returned = new AtomicBoolean();
        sim.start(Job.sleep(LATER).onCancel(Job.run(cancelled::incrementAndGet)));
        Outcome<Void> caller = sim.runOutcome(Job.run(() -> {
            s.shutdownNow();
            returned.set(true);
        }).then(Job.sleep(LATER)));
        sim.runUntilIdle(); // the other fiber's cancellation and finalizer
        assertThat(returned).isTrue();
        assertThat(caller).isInstanceOf(Outcome.Cancelled.class);
        assertThat(cancelled).hasValue(1);
        assertThat(sim.elapsed()).as("nothing waited in virtual time").isEqualTo(Duration.ZERO);
        sim.close();
        assertThat(s.isTerminated()).isTrue();
    }
}
