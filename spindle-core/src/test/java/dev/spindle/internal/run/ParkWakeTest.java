package dev.spindle.internal.run;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No wake-up is lost: work pushed from outside while every worker is parked always runs, exactly once
 * (the fast version of {@link ParkWakeStressTest}).
 */
class ParkWakeTest {

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4, 8})
    void workPushedFromOutsideAgainstParkedWorkersAlwaysRuns(int workers) throws Exception {
        new ParkWakeHammer(workers, 2, ParkWakeHammer.seed()).run(1_000);
    }
}
