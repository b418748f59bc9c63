package dev.spindle.internal.run;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The inbox's half of {@link Worker}'s parking protocol: {@link Worker#pushInbox} (CAS the item onto the
 * inbox, then {@code signalIfParked}: read state, CAS PARKED to SIGNALLED) against a worker going idle
 * ({@link Worker#announceParked}, then the re-check {@link Worker#mayPark}, which reads the inbox). The
 * comment in {@code pushInbox} names the pair: the CAS publishes the item before the read of the state,
 * and the idle worker publishes PARKED before it re-reads the inbox, so at least one side sees the other.
 * This is how a direct body's resumption reaches its home worker from another thread.
 *
 * <p>Result: r1 = 1 when the worker's re-check decided to park; r2 = the worker's state once both sides are
 * done (1 PARKED: nobody signalled it, 2 SIGNALLED). Deciding to park while nobody signals is a lost
 * wake-up: the item would wait in the inbox of a sleeping worker.
 *
 * <p>On x86 the hardware cannot break this pair: the pusher's CAS is a full fence, and so is the worker's
 * atomic add to the idle count between its store of PARKED and its read of the inbox (with that store made
 * a release store, nothing failed in 1.2 million samples). It fails on a wrong order in the code: with
 * {@code signalIfParked} called before the CAS, 7,432 of 2.1 million samples were lost wake-ups. A weakly
 * ordered machine needs the volatile modes as well.
 */
@JCStressTest
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "the worker decided to park; the pusher saw it parked and signalled it")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the worker saw the item and stays up; the pusher saw it awake")
@Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "both saw each other: the worker stays up and was signalled too")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "lost wake-up: the worker parks, and the pusher signalled nobody")
@Outcome(expect = FORBIDDEN, desc = "impossible state")
@State
public class InboxWakeDekker {
    private final Worker worker = RunFixtures.engine("jcstress-inbox-wake").soleWorker();
    private final Work item = new RunFixtures.Item(1);

    /** Creates the state of one sample: an awake worker with an empty inbox. */
    public InboxWakeDekker() {
    }

    /** The worker going idle: announce PARKED, then re-check whether it may park. */
    @Actor
    public void idleWorker(II_Result r) {
        worker.announceParked();
        r.r1 = worker.mayPark(RunFixtures.NEVER) ? 1 : 0;
    }

    /** Another thread hands the worker an item that only it may run. */
    @Actor
    public void pusher() {
        worker.pushInbox(item);
    }

    /** Whether the pusher signalled the worker. */
    @Arbiter
    public void signalled(II_Result r) {
        r.r2 = worker.state;
    }
}
