package dev.spindle;

import static dev.spindle.LincheckSupport.poll;
import static dev.spindle.LincheckSupport.run;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link IVar} against a write-once cell, by Lincheck model checking: {@code fill}
 * (second fill fails), {@code tryFill}, and non-blocking reads, plain and offered in a choose against
 * another IVar (the read registers a waiter that a concurrent fill commits or finds stale).
 */
@Param(name = "value", gen = IntGen.class, conf = "1:3")
public class IVarLincheckTest {
    private final IVar<Integer> iv = new IVar<>("x");
    private final IVar<Integer> other = new IVar<>("y");

    @Operation
    public boolean fill(@Param(name = "value") int v) {
        return run(iv.fill(v).attempt()).isSuccess();
    }

    @Operation
    public boolean tryFill(@Param(name = "value") int v) {
        return run(iv.tryFill(v));
    }

    @Operation
    public boolean tryFillOther(@Param(name = "value") int v) {
        return run(other.tryFill(v));
    }

    @Operation
    public Integer read() {
        return poll(iv.read(), null);
    }

    /** x if filled, else y + 100 if filled, else null. */
    @Operation
    public Integer readEither() {
        return run(Alt.choose(iv.read(), other.read().wrap(v -> v + 100), Alt.always((Integer) null)));
    }

    @Test
    @Tag("stress") // on the method: a JUnit annotation on this public class would trip -Xlint:exports
    void modelCheck() {
        LincheckOptions.check(IVarLincheckTest.class, Spec.class);
    }

    /** The sequential specification: two write-once cells. */
    public static final class Spec {
        private Integer x;
        private Integer y;

        public boolean fill(int v) {
            return tryFill(v);
        }

        public boolean tryFill(int v) {
            if (x != null) {
                return false;
            }
            x = v;
            return true;
        }

        public boolean tryFillOther(int v) {
            if (y != null) {
                return false;
            }
            y = v;
            return true;
        }

        public Integer read() {
            return x;
        }

        public Integer readEither() {
            return x != null ? x : y != null ? Integer.valueOf(y + 100) : null;
        }
    }
}
