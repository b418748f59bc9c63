package dev.spindle.examples;

import dev.spindle.Job;
import dev.spindle.test.ExplorationReport;
import dev.spindle.test.Scenario;
import dev.spindle.test.SimFiber;
import dev.spindle.test.Simulation;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Controlling a simulation: a start instant for the virtual clock, cancelling a {@link SimFiber} (which
 * waits for its finalizers), and {@link Job#random()}, seeded from the simulation so that randomised code
 * replays exactly from an exploration report.
 */
public final class SimulatorControl {
    private SimulatorControl() {
    }

    /** A simulation that starts on New Year's Day 2030 sleeps until noon: the virtual clock reads noon. */
    static Instant noonOnNewYearsDay() {
        Instant start = Instant.parse("2030-01-01T00:00:00Z");
        try (Simulation sim = Simulation.builder().startAt(start).build()) {
            sim.run(Job.sleepUntil(start.plus(Duration.ofHours(12))));
            return sim.now();
        }
    }

    /** Cancels a fiber whose finalizer takes 5 s of virtual time: cancel() returns once it has run. */
    static Duration cancelWaitsForTheFinalizer() {
        try (Simulation sim = Simulation.create()) {
            SimFiber<Void> server = sim.start(Job.sleep(Duration.ofDays(1))
                    .onCancel(Job.sleep(Duration.ofSeconds(5))));             // a graceful shutdown
            sim.advance(Duration.ofSeconds(1));
            server.cancel();
            return sim.elapsed();                                             // 6 s
        }
    }

    /** Backoff with jitter from Job.random(): fails when the two retries pick the same delay. */
    static final Scenario JITTER = sim -> {
        Job<Integer> jitter = Job.random().map(r -> r.nextInt(4));
        List<Integer> delays = sim.run(Job.all(List.of(jitter, jitter)));
        if (delays.get(0).equals(delays.get(1))) {
            throw new AssertionError("both retries back off " + delays.get(0) + " ms: they collide");
        }
    };

    /** Explores JITTER until a schedule collides; gives the report, whose replay line fails the same way. */
    static ExplorationReport exploreJitter() {
        return Simulation.explore(100, 3, JITTER);
    }

    /** Prints what each example gives. */
    static void demo(PrintStream out) {
        out.println("start instant -> " + noonOnNewYearsDay());
        out.println("cancel        -> returned after " + cancelWaitsForTheFinalizer() + " of virtual time");
        ExplorationReport report = exploreJitter();
        out.println("random        -> " + (report.failed() ? "failed under " + report.replayToken()
                + "; replay: " + report.replayLine() : "passed"));
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
