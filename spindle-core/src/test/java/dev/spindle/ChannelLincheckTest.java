package dev.spindle;

import static dev.spindle.LincheckSupport.poll;
import static dev.spindle.LincheckSupport.run;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of channels against two FIFO queues, by Lincheck model checking: {@code send} on two
 * channels, non-blocking takes (a choose with an {@link Alt#always} fallback) on each, and a two-way choose
 * over both. The polls register real waiters (a choose registers its take, then commits the fallback), so
 * sends race with live, committed and stale choose waiters and with the pick hand-over.
 *
 * <p>Blocking give and take cannot be Lincheck operations (an operation must finish on its own thread);
 * their rendezvous is covered by the stress and unit tests. A non-blocking give has no sequential
 * specification (on a synchronous channel it succeeds only against a concurrent taker) and is left out.
 */
@Param(name = "value", gen = IntGen.class, conf = "1:3")
public class ChannelLincheckTest {
    private final Channel<Integer> a = new Channel<>("a");
    private final Channel<Integer> b = new Channel<>("b");

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
    public Integer pollB() {
        return poll(b.take(), null);
    }

    /** The first ready of a and b, in that order; b's values come back plus 100. */
    @Operation
    public Integer pollEither() {
        return run(Alt.choose(a.take(), b.take().wrap(v -> v + 100), Alt.always((Integer) null)));
    }

    @Test
    @Tag("stress") // on the method: a JUnit annotation on this public class would trip -Xlint:exports
    void modelCheck() {
        LincheckOptions.check(ChannelLincheckTest.class, TwoQueuesSpec.class);
    }
}
