package dev.spindle;

import static dev.spindle.LincheckSupport.poll;
import static dev.spindle.LincheckSupport.run;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link Mailbox} against a FIFO queue, by Lincheck model checking: {@code send},
 * non-blocking takes, and a choose over two mailboxes (the first ready wins).
 */
@Param(name = "value", gen = IntGen.class, conf = "1:3")
public class MailboxLincheckTest {
    private final Mailbox<Integer> a = new Mailbox<>("a");
    private final Mailbox<Integer> b = new Mailbox<>("b");

    @Operation
    public void sendA(@Param(name = "value") int v) {
        run(a.send(v));
    }

    @Operation
    public void sendB(@Param(name = "value") int v) {
        run(b.send(v));
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
        LincheckOptions.check(MailboxLincheckTest.class, TwoQueuesSpec.class);
    }
}
