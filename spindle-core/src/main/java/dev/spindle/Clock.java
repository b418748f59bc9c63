package dev.spindle;

import dev.spindle.internal.run.Engine;
import java.time.Instant;

/** Maps an engine's nanosecond clock to {@link Instant}s: anchored once to the wall clock at class load. */
final class Clock {
    private static final Instant ANCHOR_INSTANT = Instant.now();
    private static final long ANCHOR_NANOS = System.nanoTime();

    private Clock() {
    }

    static Instant instant(Engine e) {
        return ANCHOR_INSTANT.plusNanos(e.nanoTime() - ANCHOR_NANOS);
    }
}
