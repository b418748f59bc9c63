package demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.spindle.Job;
import dev.spindle.test.Simulation;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A user's test with the simulator: an hour of virtual time, and a direct body on continuations. */
class MainTest {
    @Test
    void anHourPassesInVirtualTime() {
        try (Simulation sim = Simulation.create()) {
            int value = sim.run(Job.sleep(Duration.ofHours(1)).then(Job.result(42)));
            assertEquals(42, value);
            assertEquals(Duration.ofHours(1), sim.elapsed());
        }
    }

    @Test
    void directBodiesRunInTheSimulatorWithTheFlag() {
        try (Simulation sim = Simulation.create()) {
            int value = sim.run(Job.direct(() -> Job.sleep(Duration.ofMinutes(1)).then(Job.result(7)).await()));
            assertEquals(7, value);
            assertEquals(Duration.ofMinutes(1), sim.elapsed());
        }
    }
}
