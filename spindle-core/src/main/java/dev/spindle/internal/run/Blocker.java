package dev.spindle.internal.run;



/**
 * Something a fiber can be blocked on: a wait list, a timer, a channel. Cancellation uses it to withdraw
 * the fiber's waiting continuation.
 */
public interface Blocker {
    /**
     * Removes the continuation of {@code fiber} that waits here, if it still does, and returns it; the
     * caller then owns resuming it. Returns null when the fiber no longer waits here (it was resumed, or
     * never arrived). Removal and normal resumption are mutually exclusive: exactly one of them gets the
     * continuation.
     */
    Cont<?> removeWaiter(FiberBase<?> fiber);

    /** A short description of what is waited on, for fiber dumps and deadlock reports. */
    String describe();

    /** Whether the fiber waits for its own children (race/all/any): reports then list those children. */
    default boolean waitsForChildren() {
        return false;
    }
}
