package dev.spindle.internal.run;



/**
 * Something a fiber can be blocked on: a wait list, a timer, a channel. Cancellation uses it to withdraw
 * the fiber's waiting continuation.
 */
public interface Blocker {
    /**
     * Removes the continuation of {@code fiber} that waits here, if it still does and the fiber's
     * cancellation is pending ({@link FiberBase#cancelPending()}), and returns it; the caller then owns
     * resuming it. Returns null when the fiber no longer waits here (it was resumed, or never arrived), or
     * when it waits inside an uncancelable region. Removal and normal resumption are mutually exclusive:
     * exactly one of them gets the continuation.
     *
     * <p>The cancel state is read once the waiter is found, under the exclusion that removal shares with
     * resumption (or, for a blocker made for one wait, after the canceller read it from the fiber's slot):
     * a fiber masks before it enqueues a waiter and cannot unmask while it waits, so the read sees the mask
     * the wait was entered under. A canceller that found the fiber unmasked and then was delayed must not
     * take a wait the fiber entered since, inside a finalizer: the mask, not the moment of the request,
     * decides.
     */
    Cont<?> removeWaiter(FiberBase<?> fiber);

    /** A short description of what is waited on, for fiber dumps and deadlock reports. */
    String describe();

    /** Whether the fiber waits for its own children (race/all/any): reports then list those children. */
    default boolean waitsForChildren() {
        return false;
    }
}
