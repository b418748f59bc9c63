package dev.spindle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The cancel protocol of a blocking fiber when it waits again where it last waited: {@code FiberImpl.blockOn}
 * then skips its volatile store of {@code blockedOn} (a ping-pong over one channel pays no fence per wait).
 * Its comment argues that the earlier store of the same blocker is what a canceller reads anyway; what keeps
 * the pair safe without the fence is the channel's lock, which both the enqueue and the canceller's
 * withdrawal take: either the canceller's search comes after the enqueue and finds it, or it comes before,
 * and the fiber's lock acquisition then orders the cancel bit before its re-read. Same race as
 * {@link BlockCancelDekker} otherwise ({@link TakeCancelRace}).
 *
 * <p>Result: as in {@link BlockCancelDekker} ({@link TakeCancelRace#settle}).
 */
@JCStressTest
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the take saw the cancellation before queueing")
@Outcome(id = "2, 1, 0", expect = ACCEPTABLE, desc = "the take queued, then its re-check saw the cancellation and withdrew")
@Outcome(id = "3, 1, 0", expect = ACCEPTABLE, desc = "the canceller found the waiter and withdrew it")
@Outcome(id = "0, 0, 1", expect = FORBIDDEN, desc = "cancellation lost: the fiber still waits")
@Outcome(expect = FORBIDDEN, desc = "the continuation resumed twice, or in a way no side does")
@State
public class ReblockCancelDekker {
    private final TakeCancelRace race = new TakeCancelRace(true);

    /** Creates the state of one sample: a running fiber whose last wait was on the same channel. */
    public ReblockCancelDekker() {
    }

    /** The fiber takes from the empty channel again. */
    @Actor
    public void take() {
        race.take();
    }

    /** Another thread cancels the fiber. */
    @Actor
    public void cancel() {
        race.cancel();
    }

    /** Counts how the continuation came back. */
    @Arbiter
    public void settle(III_Result r) {
        race.settle(r);
    }
}
