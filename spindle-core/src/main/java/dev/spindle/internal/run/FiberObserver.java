package dev.spindle.internal.run;

import java.util.random.RandomGenerator;

/**
 * Sees fibers come and go and block: for deadlock reports, traces and fiber dumps. Engines in
 * production have none; the simulator installs one.
 */
public interface FiberObserver {
    /** A fiber was created. */
    void started(FiberBase<?> fiber);

    /** A fiber finished. */
    void finished(FiberBase<?> fiber);

    /** A fiber is about to wait at {@code blocker}. */
    void blocked(FiberBase<?> fiber, Blocker blocker);

    /** A fiber was given a name by the user. */
    void named(FiberBase<?> fiber, String name);

    /**
     * A generator for a fiber's first {@code Job.random()}: the simulator's is seeded, so that a schedule
     * replays exactly; null (the default) for an unseeded one.
     */
    default RandomGenerator newRandom() {
        return null;
    }
}
