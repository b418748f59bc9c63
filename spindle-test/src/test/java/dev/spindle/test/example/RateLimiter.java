package dev.spindle.test.example;

import dev.spindle.Job;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Lets callers through at most once per interval, in arrival order: a caller that comes too early sleeps
 * (without holding a worker) until its slot. An example of code whose behaviour is all about time, tested
 * in virtual time by {@link RateLimiterSimTest}.
 *
 * <pre>{@code
 * RateLimiter limiter = new RateLimiter(Duration.ofMillis(200));   // 5 per second
 * Job<Response> call = limiter.acquire().then(client.send(request));
 * }</pre>
 */
public final class RateLimiter {
    private final Duration interval;
    /** The earliest instant the next caller may pass; null before the first. Guarded by this. */
    private Instant nextSlot;

    /** A limiter letting one caller through per {@code interval}. */
    public RateLimiter(Duration interval) {
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive, was " + interval);
        }
        this.interval = interval;
    }

    /** A job that waits for this caller's slot. */
    public Job<Void> acquire() {
        return Job.now().flatMap(now -> Job.sleep(reserve(now)));
    }

    /** Reserves the next slot for a caller arriving at {@code now}; gives how long it must wait. */
    private synchronized Duration reserve(Instant now) {
        Instant slot = nextSlot == null || nextSlot.isBefore(now) ? now : nextSlot;
        nextSlot = slot.plus(interval);
        return Duration.between(now, slot);
    }
}
