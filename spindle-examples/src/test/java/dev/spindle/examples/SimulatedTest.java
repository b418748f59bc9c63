package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.ExplorationReport;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The simulator runs {@link Simulated}'s jobs in virtual time and finds the planted lost update. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class SimulatedTest {

    /** An hour of sleep passes exactly an hour of virtual time, and almost no real time. */
    @Test
    void anHourPassesInVirtualTime() {
        long start = System.nanoTime();
        assertThat(Simulated.anHourInVirtualTime()).isEqualTo(Duration.ofHours(1));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    }

    /** Exploration finds a schedule in which one increment is lost, and names it for replay. */
    @Test
    void explorationFindsTheLostUpdate() {
        ExplorationReport report = Simulated.findLostUpdate();
        assertThat(report.failed()).isTrue();
        assertThat(report.schedulesRun()).as("scheduling order (the first schedule) passes").isGreaterThan(1);
        assertThat(report.failure()).hasMessage("lost update: two increments gave 1");
        assertThat(report.replayLine()).contains(report.replayToken());
    }
}
