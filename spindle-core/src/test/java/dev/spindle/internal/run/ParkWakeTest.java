package dev.spindle.internal.run;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * No wake-up is lost: work pushed from outside while every worker is parked always runs, exactly once,
 * and work handed to one worker's inbox runs on that worker (the fast version of {@link ParkWakeStressTest}).
 */
class ParkWakeTest {

    @ParameterizedTest(name = "{0} workers, {1}")
    @CsvSource({"1, GLOBAL", "2, GLOBAL", "4, GLOBAL", "8, GLOBAL", "1, INBOX", "2, INBOX", "4, INBOX"})
    void workPushedFromOutsideAgainstParkedWorkersAlwaysRuns(int workers, ParkWakeHammer.Route route)
            throws Exception {
        new ParkWakeHammer(workers, 2, ParkWakeHammer.seed(), route).run(1_000);
    }
}
