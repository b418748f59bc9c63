package dev.spindle.examples;

import dev.spindle.Job;
import dev.spindle.test.ExplorationReport;
import dev.spindle.test.Scenario;
import dev.spindle.test.Simulation;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/**
 * Deterministic simulation ({@code spindle-test}): the same jobs run on one thread in virtual time, so an
 * hour of sleeping takes no real time, and {@link Simulation#explore} tries many orders of the work that is
 * ready at the same instant until one breaks an assertion, then says how to replay it.
 */
public final class Simulated {
    private Simulated() {
    }

    /** A counter whose increment reads, yields, then writes back: a race waiting to happen. */
    static final class RacyCounter {
        private int value;

        /** Adds one, non-atomically. */
        Job<Void> increment() {
            return Job.of(() -> value).flatMap(v -> Job.yieldNow().then(Job.run(() -> value = v + 1)));
        }

        /** The current value. */
        int value() {
            return value;
        }
    }

    /** Two increments, the second a step later, must give 2. They do in scheduling order, but not always. */
    static final Scenario TWO_INCREMENTS = sim -> {
        RacyCounter counter = new RacyCounter();
        sim.run(Job.all(List.of(
                counter.increment().named("first"),
                Job.yieldNow().then(counter.increment()).named("second"))));
        if (counter.value() != 2) {
            throw new AssertionError("lost update: two increments gave " + counter.value());
        }
    };

    /** Sleeps an hour under a two-hour timeout in virtual time; gives the virtual time that passed. */
    static Duration anHourInVirtualTime() {
        try (Simulation sim = Simulation.create()) {
            sim.run(Job.sleep(Duration.ofHours(1)).timeout(Duration.ofHours(2)));
            return sim.elapsed();
        }
    }

    /** Explores up to 100 schedules of {@link #TWO_INCREMENTS}; the report names the one that failed. */
    static ExplorationReport findLostUpdate() {
        return Simulation.explore(100, 42, TWO_INCREMENTS);
    }

    /** Prints the virtual time and the exploration report: the failing schedule, its replay line and trace. */
    static void demo(PrintStream out) {
        long start = System.nanoTime();
        Duration virtual = anHourInVirtualTime();
        out.println("slept " + virtual + " of virtual time in " + (System.nanoTime() - start) / 1_000_000
                + " ms of real time");
        out.println(findLostUpdate());
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
