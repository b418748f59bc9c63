package dev.spindle;

import dev.spindle.internal.run.Durations;
import dev.spindle.internal.run.Engine;
import java.time.Duration;
import java.time.Instant;

/**
 * Maps an engine's nanosecond clock to {@link Instant}s, as its driver does: anchored once to the wall
 * clock on real time, at the start instant a simulator chooses on virtual time.
 */
final class Clock {
    private Clock() {
    }

    static Instant instant(Engine e) {
        return e.driver().instant(e.nanoTime());
    }

    /**
     * Nanoseconds from now until {@code deadline} on {@code e}'s clock: 0 for an instant already past,
     * saturated (as sleeps are) for one too far ahead to count in nanoseconds.
     */
    static long nanosUntil(Engine e, Instant deadline) {
        Duration left = Duration.between(instant(e), deadline);
        return left.isNegative() ? 0 : Durations.nonNegativeNanos(left, "deadline");
    }
}
