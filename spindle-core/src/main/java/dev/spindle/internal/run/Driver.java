package dev.spindle.internal.run;

/**
 * Replaces an engine's threads and clock: the deterministic simulator. An engine with a driver has one
 * worker and no threads at all (not even a timer thread); whoever waits on it calls
 * {@link #driveUntil}, which runs work on the calling thread in an order of the driver's choosing and
 * advances the driver's clock when nothing is runnable.
 */
public interface Driver {
    /** The current time in nanoseconds (virtual). */
    long nanoTime();

    /** Runs work on the calling thread until {@code stop} holds. */
    void driveUntil(Engine engine, StopCondition stop);
}
