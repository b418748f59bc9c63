package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.spindle.test.fixture.Patience;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Hang guards for tests: how long a test waits for something that must happen before it gives up and
 * fails with a message naming what never happened. Never a timing assertion: a slow machine only makes a
 * passing test slower. Scaled by the fixture's {@link Patience} factor.
 */
final class Await {
    /** How long to wait for something that must happen. */
    static final Duration LONG = Patience.LONG;

    private Await() {
    }

    /** Waits until {@code latch} opens; fails naming {@code what} and the count left when it does not. */
    static void latch(CountDownLatch latch, String what) {
        boolean opened;
        try {
            opened = latch.await(LONG.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + what, e);
        }
        assertThat(opened).as("timed out after %s waiting for %s (%d left)", LONG, what, latch.getCount()).isTrue();
    }

    /** Spins (yielding the core) until {@code condition} holds; fails naming {@code what} when it never does. */
    static void until(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + LONG.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after %s waiting for %s", LONG, what);
            }
            Thread.yield();
        }
    }

    /** Joins {@code t}; fails naming it when it does not end in time. */
    static void join(Thread t) {
        try {
            t.join(LONG.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while joining " + t, e);
        }
        assertThat(t.isAlive()).as("thread %s still running after %s", t.getName(), LONG).isFalse();
    }
}
