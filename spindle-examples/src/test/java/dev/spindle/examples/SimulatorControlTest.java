package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.ExplorationReport;
import dev.spindle.test.Simulation;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link SimulatorControl}: start instant, cancel, and random replayed from the report. */
final class SimulatorControlTest {

    @Test
    void theClockStartsAtTheChosenInstant() {
        assertThat(SimulatorControl.noonOnNewYearsDay()).isEqualTo(Instant.parse("2030-01-01T12:00:00Z"));
    }

    @Test
    void cancelReturnsAfterTheFinalizer() {
        assertThat(SimulatorControl.cancelWaitsForTheFinalizer()).isEqualTo(Duration.ofSeconds(6));
    }

    @Test
    void aCollisionFoundByExplorationReplaysFromItsToken() {
        ExplorationReport report = SimulatorControl.exploreJitter();
        assertThat(report.failed()).isTrue();
        assertThatThrownBy(() -> Simulation.replay(report.replayToken(), SimulatorControl.JITTER))
                .isInstanceOf(AssertionError.class).hasMessageContaining("collide");
        assertThat(SimulatorControl.exploreJitter().replayToken()).isEqualTo(report.replayToken());
    }
}
