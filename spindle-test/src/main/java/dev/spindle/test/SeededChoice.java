package dev.spindle.test;

import dev.spindle.internal.run.Work;
import java.util.List;
import java.util.SplittableRandom;

/** Seed 0: the oldest runnable item (scheduling order); otherwise uniform choice from a seeded generator. */
final class SeededChoice implements Choice {
    /** Null for seed 0. */
    private final SplittableRandom random;

    SeededChoice(long seed) {
        this.random = seed == 0 ? null : new SplittableRandom(seed);
    }

    @Override
    public int pick(List<Work> items, FiberLookup infoOf) {
        return random == null ? 0 : random.nextInt(items.size());
    }

    @Override
    public void fiberStarted(FiberInfo fiber) {
    }
}
