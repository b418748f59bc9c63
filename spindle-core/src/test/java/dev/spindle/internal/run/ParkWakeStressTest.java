package dev.spindle.internal.run;

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

    @ParameterizedTest(name = "{0} workers, {1} producers")
    @CsvSource({"1, 1", "1, 3", "2, 2", "4, 2", "4, 4", "8, 3"})
    void workPushedFromOutsideAgainstParkedWorkersAlwaysRuns(int workers, int producers) throws Exception {
        new ParkWakeHammer(workers, producers, ParkWakeHammer.seed()).run(100_000);
    }
}
