package dev.spindle.internal.run;

/**
 * An I/O readiness source that the workers of one engine drive themselves (Go's netpoller, Cats Effect's
 * polling system): the network layer installs one per engine on first use ({@link Engine#poller}), and a
 * worker calls it at three points of its loop. An engine that never registered a socket has none, and
 * then each point costs one null check.
 *
 * <pre>
 * Hook points (Worker)
 *   busy:    every {@code Worker.POLL_INTERVAL} items, pollNow(w): a non-blocking look, skipped when another
 *            worker holds the poller
 *   idle:    after announcing PARKED and re-checking, pollBlocking(w) instead of parking: blocks until
 *            readiness, a wakeUp(w) or a signal; false when another worker already polls (then w parks)
 *   wake-up: whenever w is signalled or unparked, wakeUp(w), which interrupts w's blocking poll if any
 * Readiness found by a poll goes to the end of the engine's global queue, in the order the poll found it:
 * first ready, first run by whichever worker is free, and never ahead of readiness an earlier poll found.
 * </pre>
 */
public interface Poller {
    /** Polls without blocking, on {@code w}'s thread; true when some readiness was found. */
    boolean pollNow(Worker w);

    /**
     * Polls on {@code w}'s thread until readiness or {@link #wakeUp}; called only by an idle worker that
     * announced itself parked. Returns false at once when another worker is polling (the caller parks).
     * Returns early when {@code w} is no longer parked ({@link Worker#isParked()}), checked after the
     * poller has published that {@code w} polls: a signal in between wakes the poll instead.
     */
    boolean pollBlocking(Worker w);

    /** Interrupts {@code w}'s blocking poll, or the next one if it has not started yet; cheap otherwise. */
    void wakeUp(Worker w);

    /** Releases the poller's resources; called once when the engine terminates. */
    void close();
}
