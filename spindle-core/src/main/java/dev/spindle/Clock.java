package dev.spindle;

import dev.spindle.internal.run.Engine;
import java.time.Instant;

/**
 * Maps an engine's nanosecond clock to {@link Instant}s: anchored once to the wall clock at class load, or
 * to the epoch for a simulator's virtual clock.
 */
final class Clock {
    private static final Instant ANCHOR_INSTANT = Instant.now();
    private static final long ANCHOR_NANOS = System.nanoTime();

    private Clock() {
    }

    static Instant instant(Engine e) {
        if (e.isDriven()) {
            return Instant.EPOCH.plusNanos(e.nanoTime()); // virtual time: reproducible across runs
        }
        return ANCHOR_INSTANT.plusNanos(e.nanoTime() - ANCHOR_NANOS);
    }
}
