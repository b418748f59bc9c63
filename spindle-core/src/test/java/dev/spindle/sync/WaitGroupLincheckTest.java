package dev.spindle.sync;

import dev.spindle.LincheckOptions;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link WaitGroup}'s counter against an int, by Lincheck model checking: {@code add}
 * (lock-free), {@code done} (lock-free above one, locked for the last step; below zero fails with
 * IllegalStateException and changes nothing), {@code count}, and a non-waiting check through the waiting
 * path.
 */
@Param(name = "n", gen = IntGen.class, conf = "0:2")
public class WaitGroupLincheckTest {
    private final WaitGroup wg = new WaitGroup(1);

    @Operation
    public void add(@Param(name = "n") int n) {
        wg.add(n);
    }

    @Operation
    public void done() {
        wg.done();
    }

    @Operation
    public int count() {
        return wg.count();
    }

    @Test
    @Tag("stress") // on the method: a JUnit annotation on this public class would trip -Xlint:exports
    void modelCheck() {
        LincheckOptions.check(WaitGroupLincheckTest.class, Spec.class);
    }

    /** The sequential specification: a non-negative count. */
    public static final class Spec {
        private int count = 1;

        public void add(int n) {
            count += n;
        }

        public void done() {
            if (count == 0) {
                throw new IllegalStateException("below zero");
            }
            count--;
        }

        public int count() {
            return count;
        }
    }
}
