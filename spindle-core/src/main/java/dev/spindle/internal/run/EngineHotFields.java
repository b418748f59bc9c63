package dev.spindle.internal.run;

/**
 * The fields of {@link Engine} that every worker writes (the global queue and the idle count), kept on cache
 * lines of their own: 64 bytes of padding on each side ({@link CacheLinePadding} before,
 * {@link EngineHotFieldsPadded} after), laid out before Engine's own fields because the JVM places a
 * superclass's fields first (and within one class, longs before ints and references, hence a class per
 * layer). Without it, the read-mostly fields read on every fiber's start and end (the observer, the driver)
 * would share a line with them, and every global push or park by one worker would cost the others a cache
 * miss on each fiber.
 */
abstract class EngineHotFields extends CacheLinePadding {
    /** Guards head/tail of the global queue. */
    int lock;
    /** Oldest global item. Written under lock (volatile); read without lock by the idle protocol. */
    volatile Work head;
    /** Newest global item. Guarded by lock. */
    Work tail;
    /** Number of PARKED workers (see Worker's parking protocol). Atomic. */
    volatile int idleCount;
    /**
     * Items a worker runs between two shares from a deep stack ({@link Engine#adaptShareGap}). Plain reads
     * and writes by any worker: a heuristic, and a stale value only shares a little early or late.
     */
    int shareGap;
}
