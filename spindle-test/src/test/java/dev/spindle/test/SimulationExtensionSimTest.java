package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.spindle.Job;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** {@code @SimulationTest}: runs a method under N schedules, reports the failing one, replays a given one. */
class SimulationExtensionSimTest {
    private static final String SELF_TEST = "spindle.sim.selftest";
    private static final List<String> PROPERTIES = List.of(SELF_TEST, SimulationExtension.REPLAY_PROPERTY,
            SimulationExtension.SCHEDULES_PROPERTY, SimulationExtension.SEED_PROPERTY);

    static final AtomicInteger CALLS = new AtomicInteger();
    static final Set<String> SCHEDULES_SEEN = new HashSet<>();

    /** Run only through the launcher below, never by surefire directly. */
    @EnabledIfSystemProperty(named = SELF_TEST, matches = "true")
    static class Passing {
        @SimulationTest(schedules = 50, seed = 3)
        void yieldsAndSleeps(Simulation sim) {
            CALLS.incrementAndGet();
            SCHEDULES_SEEN.add(sim.schedule().toString());
            sim.run(Job.yieldNow().then(Job.sleep(java.time.Duration.ofSeconds(1))));
            assertEquals(java.time.Duration.ofSeconds(1), sim.elapsed());
        }
    }

    @EnabledIfSystemProperty(named = SELF_TEST, matches = "true")
    static class Failing {
        @SimulationTest(schedules = 1_000, seed = 42)
        void lostUpdate(Simulation sim) throws Exception {
            CALLS.incrementAndGet();
            LostUpdateSimTest.TWO_INCREMENTS.run(sim);
        }
    }

    private final java.util.Map<String, String> saved = new java.util.HashMap<>();

    @BeforeEach
    void isolateProperties() {
        for (String p : PROPERTIES) {
            saved.put(p, System.getProperty(p));
            System.clearProperty(p);
        }
        System.setProperty(SELF_TEST, "true");
        CALLS.set(0);
        SCHEDULES_SEEN.clear();
    }

    @AfterEach
    void restoreProperties() {
        for (String p : PROPERTIES) {
            String v = saved.get(p);
            if (v == null) {
                System.clearProperty(p);
            } else {
                System.setProperty(p, v);
            }
        }
    }

    private static TestExecutionSummary launch(Class<?> testClass) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(
                LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(), listener);
        return listener.getSummary();
    }

    /** A passing method runs once per schedule, each with a fresh simulation, and counts as one test. */
    @Test
    void runsTheMethodOncePerSchedule() {
        TestExecutionSummary summary = launch(Passing.class);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
        assertThat(CALLS.get()).isEqualTo(50);
        assertThat(SCHEDULES_SEEN).hasSize(50).contains("seed:0");
    }

    /** The schedule count comes from -Dspindle.sim.schedules when set (the stress lane). */
    @Test
    void scheduleCountCanBeOverridden() {
        System.setProperty(SimulationExtension.SCHEDULES_PROPERTY, "7");

        launch(Passing.class);

        assertThat(CALLS.get()).isEqualTo(7);
    }

    /** A failing method fails once, with the report: schedule, replay line, the mvn line, the trace. */
    @Test
    void failureReportsTheScheduleAndHowToReplayIt() {
        TestExecutionSummary summary = launch(Failing.class);

        assertThat(summary.getTestsFailedCount()).isEqualTo(1);
        Throwable error = summary.getFailures().get(0).getException();
        assertThat(error).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Simulation FAILED at schedule")
                .hasMessageContaining("Replay: Simulation.replay(\"")
                .hasMessageContaining("-Dtest=Failing#lostUpdate -Dspindle.sim.replay=")
                .hasMessageContaining("\"incB\": read 0");
        assertThat(CALLS.get()).isLessThan(1_000);
    }

    /** -Dspindle.sim.replay runs exactly the given schedule: once, failing the same way. */
    @Test
    void replaysTheScheduleGivenAsProperty() {
        ExplorationReport report = Simulation.explore(1_000, 42, LostUpdateSimTest.TWO_INCREMENTS);
        System.setProperty(SimulationExtension.REPLAY_PROPERTY, report.replayToken());

        TestExecutionSummary summary = launch(Failing.class);

        assertThat(CALLS.get()).isEqualTo(1);
        assertThat(summary.getTestsFailedCount()).isEqualTo(1);
        assertThat(summary.getFailures().get(0).getException().getMessage())
                .contains("(replay) under " + report.replayToken());

        CALLS.set(0);
        launch(Passing.class);
        assertThat(CALLS.get()).isEqualTo(1);
    }
}
