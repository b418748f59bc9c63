package dev.spindle.test;

import dev.spindle.internal.diag.DumpText;

/**
 * A fiber that waits, as a {@link DeadlockException} or {@link Simulation#blockedFibers()} reports it.
 *
 * <pre>{@code
 * for (BlockedFiber f : deadlock.blocked()) {
 *     System.out.println(f);   // fiber-2 "transfer a->b" waits on join of fiber-3 "transfer b->a"
 * }
 * }</pre>
 *
 * @param id      the fiber's number in the simulation (1, 2, ... in start order)
 * @param name    the name given with {@code job.named(..)}, or null
 * @param waitsOn what it waits on: a blocker's description ({@code join of fiber-3 "b"},
 *                {@code timer due in 5 ms}, a channel...), or a note that it waits for its children
 */
public record BlockedFiber(int id, String name, String waitsOn) {
    /** {@return {@code fiber-2 "reader"}, or {@code fiber-2} when unnamed} */
    public String label() {
        return DumpText.label(id, name);
    }

    /** {@code fiber-2 "reader" waits on ...}. */
    @Override
    public String toString() {
        return DumpText.waitLine(label(), waitsOn); // the line a production fiber dump shows for it too
    }
}
