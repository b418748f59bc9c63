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
 * The cancel protocol of a blocking fiber ({@code FiberImpl}'s overview, "Blocking and cancellation"): the
 * fiber writes {@code blockedOn} (a volatile store), enqueues its continuation, then re-reads its cancel
 * state ({@code checkCancelWhileBlocked}); a canceller sets the cancel bit, then reads {@code blockedOn}
 * and withdraws the waiter from that blocker. Each side writes, then reads what the other writes, so at
 * least one of them withdraws the waiter. Here the fiber's first wait on a channel races a cancellation
 * ({@link TakeCancelRace}).
 *
 * <p>Result ({@link TakeCancelRace#settle}): r1 = which side failed the continuation with the cancellation,
 * r2 = how many times it was resumed, r3 = 1 when it still waits in the channel. A continuation left
 * waiting after the cancellation is a fiber that never ends; one resumed twice runs its code twice.
 *
 * <p>The store of {@code blockedOn} is made while the channel's lock is held, and the channel's lock is
 * what the canceller takes to look for the waiter: seeing the blocker, the canceller finds the entry.
 * Without the re-check after queueing, 4,720 of 1.9 million samples lost the cancellation.
 */
@JCStressTest
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the take saw the cancellation before queueing")
@Outcome(id = "2, 1, 0", expect = ACCEPTABLE, desc = "the take queued, then its re-check saw the cancellation and withdrew")
@Outcome(id = "3, 1, 0", expect = ACCEPTABLE, desc = "the canceller found the waiter and withdrew it")
@Outcome(id = "0, 0, 1", expect = FORBIDDEN, desc = "cancellation lost: the fiber still waits")
@Outcome(expect = FORBIDDEN, desc = "the continuation resumed twice, or in a way no side does")
@State
public class BlockCancelDekker {
    private final TakeCancelRace race = new TakeCancelRace(false);

    /** Creates the state of one sample: a running fiber that has not waited anywhere yet. */
    public BlockCancelDekker() {
    }

    /** The fiber takes from an empty channel. */
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
