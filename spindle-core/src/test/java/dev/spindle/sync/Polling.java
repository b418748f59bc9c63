package dev.spindle.sync;

import static org.assertj.core.api.Assertions.fail;

import java.util.function.BooleanSupplier;

/** Waiting for a condition from a test thread, with the harness's hang guard. */
final class Polling {
    private Polling() {
    }

    /** Spins (yielding) until {@code condition} holds; fails naming {@code what} when it never does. */
    static void until(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Harness.LONG.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after %s waiting for %s", Harness.LONG, what);
            }
            Thread.yield();
        }
    }
}
