package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.Simulation;
import dev.spindle.test.SimulationTest;
import java.time.Duration;
import java.util.Collections;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link Coordination} in virtual time, under many schedules: the waits end at exactly the instants the
 * sleeps imply, the semaphore and the pool are filled to their limits, and nothing is left running.
 */
final class CoordinationSimTest {

    /** The three 10 ms tasks overlap: the wait group opens at 10 ms with every count in. */
    @SimulationTest(schedules = 100)
    void waitGroupOpensWhenTheLastTaskEnds(Simulation sim) {
        assertThat(sim.run(Coordination.wordCounts(CoordinationTest.DOCUMENTS)))
                .containsExactlyEntriesOf(new TreeMap<>(CoordinationTest.WORD_COUNTS));
        assertThat(sim.elapsed()).isEqualTo(Duration.ofMillis(10));
        sim.close();
    }

    /**
     * The increments that lose updates in {@link Simulated#TWO_INCREMENTS} under some schedules lose none
     * under any schedule when they hold the mutex.
     */
    @SimulationTest(schedules = 200)
    void mutexLosesNoUpdateUnderAnySchedule(Simulation sim) {
        assertThat(sim.run(Coordination.guardedIncrements(3))).isEqualTo(3);
        sim.close();
    }

    /** Ten 10 ms downloads, three at a time: exactly three at once, in four rounds of 10 ms. */
    @SimulationTest(schedules = 100)
    void semaphoreFillsItsPermits(Simulation sim) {
        assertThat(sim.run(Coordination.limitedDownloads(10, 3))).isEqualTo(3);
        assertThat(sim.elapsed()).isEqualTo(Duration.ofMillis(40));
        sim.close();
    }

    /** The readers wake at the 10 ms signal; the late reader passes at once at 20 ms. */
    @SimulationTest(schedules = 100)
    void eventReleasesEveryReader(Simulation sim) {
        assertThat(sim.run(Coordination.waitForConfig())).isEqualTo(CoordinationTest.CONFIG_READS);
        assertThat(sim.elapsed()).isEqualTo(Duration.ofMillis(20));
        sim.close();
    }

    /** Six 5 ms pages, two builders: exactly two made, in three rounds of 5 ms. */
    @SimulationTest(schedules = 100)
    void poolMakesExactlyItsCapacity(Simulation sim) {
        AtomicInteger made = new AtomicInteger();
        assertThat(sim.run(Coordination.renderPages(6, CoordinationTest.counting(made))))
                .isEqualTo(Collections.nCopies(6, CoordinationTest.PAGE));
        assertThat(made).hasValue(2);
        assertThat(sim.elapsed()).isEqualTo(Duration.ofMillis(15));
        sim.close();
    }
}
