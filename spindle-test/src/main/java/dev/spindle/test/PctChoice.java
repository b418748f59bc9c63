package dev.spindle.test;

import dev.spindle.internal.run.Work;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010) over fibers.
 *
 * <pre>
 * Overview
 * ========
 *   Each fiber gets a random priority of at least {@code depth} when it starts (a 62-bit random number:
 *   ties are practically impossible and are broken by start order). At every step the runnable item of
 *   the highest-priority fiber runs (its oldest item, if it has several). Before steps k_1 .. k_(d-1),
 *   drawn uniformly from [1, K] once per run, the fiber about to run is demoted to priority i (for change
 *   point i): below every initial priority, so another fiber runs: a preemption at a random place.
 *
 *   Work that belongs to no fiber (completion callbacks, wake-ups of blocking callers) runs first: it is
 *   bookkeeping between fibers, not a fiber's step. It still counts as a step.
 *
 *   A fiber that spins (yields in a loop while waiting for another) keeps the highest priority and
 *   starves its partner until a change point demotes it: such runs end at the simulation's step limit.
 * </pre>
 */
final class PctChoice implements Choice {
    private final SplittableRandom random;
    private final int depth;
    /** Steps at which the running fiber is demoted; index i demotes to priority i + 1. */
    private final long[] changePoints;
    /** Steps taken so far in this run. */
    private long step;

    PctChoice(long seed, int depth, int steps) {
        this.random = new SplittableRandom(seed);
        this.depth = depth;
        this.changePoints = new long[depth - 1];
        for (int i = 0; i < changePoints.length; i++) {
            changePoints[i] = 1 + random.nextInt(steps);
        }
    }

    @Override
    public void fiberStarted(FiberInfo fiber) {
        fiber.priority = depth + random.nextLong(1L << 62);
    }

    @Override
    public int pick(List<Work> items, FiberLookup infoOf) {
        step++;
        int best = highest(items, infoOf);
        FiberInfo chosen = infoOf.of(items.get(best));
        if (chosen == null) {
            return best;
        }
        boolean demoted = false;
        for (int i = 0; i < changePoints.length; i++) {
            if (changePoints[i] == step) {
                chosen.priority = i + 1;
                demoted = true;
            }
        }
        return demoted ? highest(items, infoOf) : best;
    }

    /** Index of the first item of internal work, else of the oldest item of the highest-priority fiber. */
    private static int highest(List<Work> items, FiberLookup infoOf) {
        int best = -1;
        FiberInfo bestFiber = null;
        for (int i = 0; i < items.size(); i++) {
            FiberInfo f = infoOf.of(items.get(i));
            if (f == null) {
                return i;
            }
            if (bestFiber == null || f.priority > bestFiber.priority
                    || (f.priority == bestFiber.priority && f.id < bestFiber.id)) {
                best = i;
                bestFiber = f;
            }
        }
        return best;
    }
}
