package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.Simulation;
import dev.spindle.test.SimulationTest;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

/** {@link BoundedQueues} in virtual time, under many schedules: the consumer sets the pace exactly. */
final class BoundedQueuesSimTest {

    /**
     * The producer fills the queue while the consumer works, under every schedule: the queue reaches its
     * capacity, and the run takes exactly the consumer's 50 x 1 ms.
     */
    @SimulationTest(schedules = 100)
    void consumerSetsThePace(Simulation sim) {
        BoundedQueues.Pipeline p = sim.run(BoundedQueues.pipeline(50, 3, Duration.ofMillis(1)));
        assertThat(p.received()).isEqualTo(IntStream.range(0, 50).boxed().toList());
        assertThat(p.mostQueued()).isEqualTo(3);
        assertThat(sim.elapsed()).isEqualTo(Duration.ofMillis(50));
    }

    /** The offer to a full queue gives up at exactly 10 ms; the second offer goes in at once. */
    @SimulationTest(schedules = 100)
    void offerGivesUpAtItsLimit(Simulation sim) {
        assertThat(sim.run(BoundedQueues.offerToAFullQueue())).isEqualTo(List.of(false, "first", true, "second"));
        assertThat(sim.elapsed()).isEqualTo(Duration.ofMillis(10));
    }
}
