package dev.spindle.test;

import java.util.Objects;

/**
 * The recipe for one interleaving: how a {@link Simulation} chooses among work that is runnable at the
 * same virtual instant. It prints as a short token that {@link #parse} reads back, so a failing schedule
 * found by {@link Simulation#explore} can be replayed exactly.
 *
 * <pre>{@code
 * Schedule.seeded(0)               // "seed:0"        scheduling order (the default)
 * Schedule.seeded(42)              // "seed:42"       uniform random choice at every step
 * Schedule.pct(42, 3, 200)         // "pct:42:3:200"  PCT, depth 3, change points within 200 steps
 * Simulation sim = Simulation.replay("pct:42:3:200");
 * }</pre>
 *
 * <p>Two strategies:
 * <ul>
 *   <li><b>seeded</b> ({@code seed:S}): seed 0 runs work in the order it was scheduled (the blog's test
 *       scheduler, first-in first-out); any other seed picks uniformly at random among everything runnable,
 *       from a generator seeded with {@code S}.</li>
 *   <li><b>PCT</b> ({@code pct:S:D:K}), probabilistic concurrency testing (Burckhardt, Kothari,
 *       Musuvathi, Nagarakatte, ASPLOS 2010): every fiber gets a random priority when it starts and the
 *       highest-priority runnable fiber always runs; at {@code D - 1} steps chosen at random among the
 *       first {@code K}, the fiber about to run is demoted below all others. A bug that needs {@code d}
 *       ordering constraints is found with probability at least {@code 1 / (n * K^(d-1))} per run for
 *       {@code n} fibers, whatever the program.</li>
 * </ul>
 */
public final class Schedule {
    private static final String SEEDED = "seed";
    private static final String PCT = "pct";

    private final long seed;
    /** PCT depth, or 0 for a seeded schedule. */
    private final int depth;
    /** PCT step bound, or 0 for a seeded schedule. */
    private final int steps;

    private Schedule(long seed, int depth, int steps) {
        this.seed = seed;
        this.depth = depth;
        this.steps = steps;
    }

    /**
     * Seed 0: scheduling order; any other seed: uniform random choice from that seed.
     *
     * @param seed the seed
     * @return the schedule
     */
    public static Schedule seeded(long seed) {
        return new Schedule(seed, 0, 0);
    }

    /** {@return the default schedule: scheduling order ({@code seed:0})} */
    public static Schedule schedulingOrder() {
        return seeded(0);
    }

    /**
     * A PCT schedule: random fiber priorities from {@code seed}, and {@code depth - 1} priority change
     * points chosen among the first {@code steps} scheduling steps.
     *
     * @param seed the seed of the priorities and change points
     * @param depth the PCT depth, at least 1
     * @param steps the steps among which change points fall, at least 1
     * @return the schedule
     * @throws IllegalArgumentException if {@code depth < 1} or {@code steps < 1}
     */
    public static Schedule pct(long seed, int depth, int steps) {
        if (depth < 1) {
            throw new IllegalArgumentException("PCT depth must be at least 1, was " + depth);
        }
        if (steps < 1) {
            throw new IllegalArgumentException("PCT step bound must be at least 1, was " + steps);
        }
        return new Schedule(seed, depth, steps);
    }

    /**
     * Reads a token made by {@link #toString()}: {@code seed:S} or {@code pct:S:D:K}.
     *
     * @param token the token
     * @return the schedule it names
     * @throws IllegalArgumentException if {@code token} is not one
     */
    public static Schedule parse(String token) {
        Objects.requireNonNull(token, "token");
        String[] parts = token.trim().split(":", -1);
        try {
            if (parts.length == 2 && parts[0].equals(SEEDED)) {
                return seeded(Long.parseLong(parts[1]));
            }
            if (parts.length == 4 && parts[0].equals(PCT)) {
                return pct(Long.parseLong(parts[1]), Integer.parseInt(parts[2]), Integer.parseInt(parts[3]));
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a schedule: \"" + token + "\" (" + e.getMessage() + ")", e);
        }
        throw new IllegalArgumentException(
                "not a schedule: \"" + token + "\"; expected seed:<seed> or pct:<seed>:<depth>:<steps>");
    }

    /** {@return the seed of every random choice this schedule makes} */
    public long seed() {
        return seed;
    }

    /** {@return whether this is a PCT schedule} */
    public boolean isPct() {
        return depth > 0;
    }

    /** {@return PCT depth (number of priority change points plus one); 0 for a seeded schedule} */
    public int pctDepth() {
        return depth;
    }

    /** {@return the steps among which PCT change points fall; 0 for a seeded schedule} */
    public int pctSteps() {
        return steps;
    }

    /** The strategy object of one simulation run (each run gets a fresh one). */
    Choice newChoice() {
        return isPct() ? new PctChoice(seed, depth, steps) : new SeededChoice(seed);
    }

    /** The token: {@code seed:S} or {@code pct:S:D:K}. */
    @Override
    public String toString() {
        return isPct() ? PCT + ":" + seed + ":" + depth + ":" + steps : SEEDED + ":" + seed;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Schedule s && s.seed == seed && s.depth == depth && s.steps == steps;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(seed) * 31 * 31 + depth * 31 + steps;
    }
}
