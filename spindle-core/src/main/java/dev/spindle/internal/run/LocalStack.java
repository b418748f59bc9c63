package dev.spindle.internal.run;

/**
 * The two ends of the local stack, in an object of their own that the worker replaces every
 * {@link Worker#GLOBAL_CHECK_INTERVAL} items, so that it stays in the young generation. Pushes store fresh
 * (young) references here on every item. Under G1, storing a young reference into an old-generation
 * object (as a long-lived Worker soon is) takes the post-write barrier's slow path with its StoreLoad
 * fence, while a store into a young object is filtered out at once.
 */
final class LocalStack {
    /** Top of the LIFO stack (the next item to run). */
    Work top;
    /** Bottom of the stack (for O(1) sharing). */
    Work bottom;
    /** The item the worker runs or last ran, for the watchdog's reports; racy reads from other threads. */
    Work running;
}
