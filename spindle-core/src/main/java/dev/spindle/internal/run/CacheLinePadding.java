package dev.spindle.internal.run;

/**
 * 64 bytes laid out before a subclass's own fields (the JVM places a superclass's fields first), so that
 * the fields one thread writes all the time do not share a cache line with whatever was allocated just
 * before the object.
 *
 * <p>{@link Worker} extends it: the workers of an engine are allocated one after another, so without it the
 * stack top and counters that one worker writes on every item could share a cache line with the next
 * worker's, and each worker's pushes and pops would keep taking the line from the other (which engine ran
 * fast then depended on where the allocator happened to put them). {@link EngineHotFields} extends it for
 * the engine's global queue and idle count.
 */
abstract class CacheLinePadding {
    long p0;
    long p1;
    long p2;
    long p3;
    long p4;
    long p5;
    long p6;
    long p7;
}
