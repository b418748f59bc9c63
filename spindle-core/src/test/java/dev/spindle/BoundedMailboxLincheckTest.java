package dev.spindle;

import static dev.spindle.LincheckSupport.poll;
import static dev.spindle.LincheckSupport.run;

import java.util.ArrayDeque;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link BoundedMailbox} (capacity 2) against a bounded FIFO queue, by Lincheck model
 * checking: non-waiting sends (a send offered against {@code Alt.always}: on a full mailbox it registers and
 * goes stale, racing takes that look for a sender to refill from), non-waiting takes, and a choose that takes
 * from the first of two mailboxes that has a message.
 */
@Param(name = "value", gen = IntGen.class, conf = "1:3")
public class BoundedMailboxLincheckTest {
    private final BoundedMailbox<Integer> a = new BoundedMailbox<>(Spec.CAPACITY, "a");
    private final BoundedMailbox<Integer> b = new BoundedMailbox<>(Spec.CAPACITY, "b");

    @Operation
    public boolean offerA(@Param(name = "value") int v) {
        return poll(a.send(v).wrap(x -> Boolean.TRUE), Boolean.FALSE);
    }

    @Operation
    public boolean offerB(@Param(name = "value") int v) {
        return poll(b.send(v).wrap(x -> Boolean.TRUE), Boolean.FALSE);
    }

    @Operation
    public Integer pollA() {
        return poll(a.take(), null);
    }

    @Operation
    public Integer pollEither() {
        return run(Alt.choose(a.take(), b.take().wrap(v -> v + 100), Alt.always((Integer) null)));
    }

    @Test
    @Tag("stress") // on the method: a JUnit annotation on this public class would trip -Xlint:exports
    void modelCheck() {
        LincheckOptions.check(BoundedMailboxLincheckTest.class, Spec.class);
    }

    /** The sequential specification: two FIFO queues of {@link #CAPACITY} places each. */
    public static final class Spec {
        static final int CAPACITY = 2;
        private final ArrayDeque<Integer> a = new ArrayDeque<>();
        private final ArrayDeque<Integer> b = new ArrayDeque<>();

        public boolean offerA(int v) {
            return offer(a, v);
        }

        public boolean offerB(int v) {
            return offer(b, v);
        }

        public Integer pollA() {
            return a.poll();
        }

        public Integer pollEither() {
            if (!a.isEmpty()) {
                return a.poll();
            }
            return b.isEmpty() ? null : b.poll() + 100;
        }

        private static boolean offer(ArrayDeque<Integer> q, int v) {
            if (q.size() == CAPACITY) {
                return false;
            }
            q.add(v);
            return true;
        }
    }
}
