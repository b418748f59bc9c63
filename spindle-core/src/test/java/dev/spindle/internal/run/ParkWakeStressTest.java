package dev.spindle.internal.run;

import dev.spindle.StressScale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * No wake-up is lost under sustained load: many rounds of simultaneous pushes from several threads against
 * parked workers, every item runs exactly once. The {@code -Pstress} lane.
 */
@Tag("stress")
@Timeout(value = 30, unit = java.util.concurrent.TimeUnit.MINUTES)
class ParkWakeStressTest {

    @ParameterizedTest(name = "{0} workers, {1} producers, {2}")
    @CsvSource({"1, 1, GLOBAL", "1, 3, GLOBAL", "2, 2, GLOBAL", "4, 2, GLOBAL", "4, 4, GLOBAL", "8, 3, GLOBAL",
            "1, 3, INBOX", "2, 2, INBOX", "4, 4, INBOX"})
    void workPushedFromOutsideAgainstParkedWorkersAlwaysRuns(int workers, int producers,
            ParkWakeHammer.Route route) throws Exception {
        new ParkWakeHammer(workers, producers, ParkWakeHammer.seed(), route).run(StressScale.of(100_000));
    }
}
