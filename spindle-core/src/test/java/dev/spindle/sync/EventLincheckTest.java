package dev.spindle.sync;

import dev.spindle.LincheckOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link Event}'s state machine against two flags, by Lincheck model checking: an AUTO
 * event ({@code test} consumes) and a MANUAL one ({@code test} reads), each with {@code signal},
 * {@code clear}, {@code test}, {@code isSignalled}, and a zero-timeout wait (a test through the waiting
 * path). {@link Event#any} is not part of it: a combined event follows its inputs just after each signal,
 * not atomically with it.
 */
public class EventLincheckTest {
    private final Event auto = new Event(Event.Mode.AUTO);
    private final Event manual = new Event(Event.Mode.MANUAL, true);

    @Operation
    public void signalAuto() {
        auto.signal();
    }

    @Operation
    public void clearAuto() {
        auto.clear();
    }

    @Operation
    public boolean testAuto() {
        return auto.test();
    }

    @Operation
    public boolean isSignalledAuto() {
        return auto.isSignalled();
    }

    @Operation
    public boolean pollAuto() throws InterruptedException {
        return auto.awaitBlocking(java.time.Duration.ZERO);
    }

    @Operation
    public void signalManual() {
        manual.signal();
    }

    @Operation
    public void clearManual() {
        manual.clear();
    }

    @Operation
    public boolean testManual() {
        return manual.test();
    }

    @Test
    @Tag("stress") // on the method: a JUnit annotation on this public class would trip -Xlint:exports
    void modelCheck() {
        LincheckOptions.check(EventLincheckTest.class, Spec.class);
    }

    /** The sequential specification: two flags, one consumed by test. */
    public static final class Spec {
        private boolean auto;
        private boolean manual = true;

        public void signalAuto() {
            auto = true;
        }

        public void clearAuto() {
            auto = false;
        }

        public boolean testAuto() {
            boolean s = auto;
            auto = false;
            return s;
        }

        public boolean isSignalledAuto() {
            return auto;
        }

        public boolean pollAuto() {
            return testAuto();
        }

        public void signalManual() {
            manual = true;
        }

        public void clearManual() {
            manual = false;
        }

        public boolean testManual() {
            return manual;
        }
    }
}
