package dev.spindle.test;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The exploration loop behind {@link Simulation#explore}: derives schedules from a base seed, runs the
 * scenario in a fresh simulation under each, stops at the first failure.
 *
 * <pre>
 * Schedules
 * =========
 *   #1        seed:0                  scheduling order (the naive interleaving, and the first step count)
 *   #2,4,6..  seed:S                  uniform random choice, S the next nonzero long from the base seed
 *   #3,5,7..  pct:S:D:K               PCT with D cycling 2, 3, 1 and K the largest step count seen so far
 * </pre>
 * Random choice finds bugs that need many small reorderings; PCT finds bugs that need a few preemptions at
 * exact places (a lost update needs one: depth 2), with a probability bound independent of the program.
 */
final class Explorer {
    private Explorer() {
    }

    static ExplorationReport explore(int schedules, long seed, Scenario scenario) {
        if (schedules < 1) {
            throw new IllegalArgumentException("schedule count must be at least 1, was " + schedules);
        }
        SplittableRandom seeds = new SplittableRandom(seed);
        int stepBound = 1;
        for (int i = 0; i < schedules; i++) {
            Schedule s = scheduleFor(i, seeds, stepBound);
            Simulation sim = Simulation.builder().schedule(s).build();
            Throwable failure = runScenario(sim, scenario);
            if (failure != null) {
                return ExplorationReport.failed(i + 1, schedules, seed, s, failure, sim.trace());
            }
            stepBound = (int) Math.max(stepBound, Math.min(Integer.MAX_VALUE, sim.steps()));
        }
        return ExplorationReport.passed(schedules, seed);
    }

    /** One run under {@code schedule}: the replay of a reported failure. */
    static ExplorationReport run(Schedule schedule, Scenario scenario) {
        Simulation sim = Simulation.builder().schedule(schedule).build();
        Throwable failure = runScenario(sim, scenario);
        return failure == null
                ? ExplorationReport.passedReplay(schedule)
                : ExplorationReport.failed(1, 1, null, schedule, failure, sim.trace());
    }

    /** The i-th schedule (0-based) of an exploration. */
    static Schedule scheduleFor(int i, SplittableRandom seeds, int stepBound) {
        if (i == 0) {
            return Schedule.schedulingOrder();
        }
        long s = seeds.nextLong();
        while (s == 0) {
            s = seeds.nextLong();
        }
        if (i % 2 == 1) {
            return Schedule.seeded(s);
        }
        int depth = 1 + (i / 2) % 3; // 2, 3, 1, 2, 3, 1, ...
        return Schedule.pct(s, depth, stepBound);
    }

    /** Runs the scenario; its failure, a failure nobody observed, or null. */
    private static Throwable runScenario(Simulation sim, Scenario scenario) {
        try {
            scenario.run(sim);
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable e) {
            return e;
        } finally {
            sim.detach();
        }
        List<Throwable> uncaught = sim.uncaughtFailures();
        if (!uncaught.isEmpty()) {
            AssertionError e = new AssertionError(uncaught.size() + " fiber failure(s) nobody observed; the first: "
                    + uncaught.get(0), uncaught.get(0));
            for (int i = 1; i < uncaught.size(); i++) {
                e.addSuppressed(uncaught.get(i));
            }
            return e;
        }
        return null;
    }
}
