package dev.spindle;

import static dev.spindle.LincheckSupport.poll;
import static dev.spindle.LincheckSupport.run;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link MVar} against a one-slot cell, by Lincheck model checking: {@code fill}
 * (fails when full), non-blocking {@code take} and {@code read}, and a choose of take-or-read (take first).
 * Polls register real waiters, so fills race with live and stale choose waiters. {@code modify} blocks on
 * an empty MVar and is covered by the unit and stress tests instead.
 */
@Param(name = "value", gen = IntGen.class, conf = "1:3")
public class MVarLincheckTest {
    private final MVar<Integer> mv = new MVar<>("m");

    @Operation
    public boolean fill(@Param(name = "value") int v) {
        return run(mv.fill(v).attempt()).isSuccess();
    }

    @Operation
    public Integer take() {
        return poll(mv.take(), null);
    }

    @Operation
    public Integer read() {
        return poll(mv.read(), null);
    }

    /** Takes when full (the first alternative wins); the read alternative never gets the chance. */
    @Operation
    public Integer takeOrRead() {
        return run(Alt.choose(mv.take(), mv.read().wrap(v -> v + 100), Alt.always((Integer) null)));
    }

    @Test
    @Tag("stress") // on the method: a JUnit annotation on this public class would trip -Xlint:exports
    void modelCheck() {
        LincheckOptions.check(MVarLincheckTest.class, Spec.class);
    }

    /** The sequential specification: an optional value. */
    public static final class Spec {
        private Integer value;

        public boolean fill(int v) {
            if (value != null) {
                return false;
            }
            value = v;
            return true;
        }

        public Integer take() {
            Integer v = value;
            value = null;
            return v;
        }

        public Integer read() {
            return value;
        }

        public Integer takeOrRead() {
            return take();
        }
    }
}
