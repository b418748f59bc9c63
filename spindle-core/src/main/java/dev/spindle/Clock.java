package dev.spindle;

import dev.spindle.internal.run.Durations;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.FiberObserver;
import java.time.Duration;
import java.time.Instant;

/**
 * Maps an engine's nanosecond clock to {@link Instant}s: anchored once to the wall clock at class load, or
 * to the origin a simulator chooses for its virtual clock (the epoch by default).
 */
final class Clock {
    private static final Instant ANCHOR_INSTANT = Instant.now();
    private static final long ANCHOR_NANOS = System.nanoTime();

    private Clock() {
    }

    static Instant instant(Engine e) {
        if (e.isDriven()) {
            return virtualOrigin(e).plusNanos(e.nanoTime()); // virtual time: reproducible across runs
        }
        return ANCHOR_INSTANT.plusNanos(e.nanoTime() - ANCHOR_NANOS);
    }

    /** The instant a driven engine's clock reads at 0: the simulator's choice, else the epoch. */
    private static Instant virtualOrigin(Engine e) {
        FiberObserver o = e.observer();
        Instant origin = o == null ? null : o.virtualOrigin();
        return origin != null ? origin : Instant.EPOCH;
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
