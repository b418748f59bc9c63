package dev.spindle.internal.run;

/**
 * 64 bytes laid out before {@link Worker}'s own fields (the JVM places a superclass's fields first). The
 * workers of an engine are allocated one after another, so without it the stack top and counters that one
 * worker writes on every item could share a cache line with the next worker's, and each worker's pushes
 * and pops would keep taking the line from the other (which engine runs fast then depended on where the
 * allocator happened to put them).
 */
abstract class WorkerPadding {
    long p0;
    long p1;
    long p2;
    long p3;
    long p4;
    long p5;
    long p6;
    long p7;
}
