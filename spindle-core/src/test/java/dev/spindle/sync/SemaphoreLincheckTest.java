package dev.spindle.sync;

import dev.spindle.LincheckOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link Semaphore}'s non-blocking operations against a counter, by Lincheck model
 * checking: {@code tryAcquire} takes a permit iff one is available, {@code release} adds one, and
 * {@code availablePermits} reads the count.
 */
public class SemaphoreLincheckTest {
    private final Semaphore semaphore = new Semaphore(1);

    @Operation
    public boolean tryAcquire() {
        return semaphore.tryAcquire();
    }

    @Operation
    public void release() {
        semaphore.release();
    }

    @Operation
    public int availablePermits() {
        return semaphore.availablePermits();
    }

    @Test
    @Tag("stress") // on the method: a JUnit annotation on this public class would trip -Xlint:exports
    void modelCheck() {
        LincheckOptions.check(SemaphoreLincheckTest.class, Spec.class);
    }

    /** The sequential specification: a count of permits. */
    public static final class Spec {
        private int permits = 1;

        public boolean tryAcquire() {
            if (permits == 0) {
                return false;
            }
            permits--;
            return true;
        }

        public void release() {
            permits++;
        }

        public int availablePermits() {
            return permits;
        }
    }
}
