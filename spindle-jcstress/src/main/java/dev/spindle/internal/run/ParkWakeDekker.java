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
 * The park/wake Dekker pair of {@link Worker} ("Parking (no lost wake-ups)"): a worker going idle runs
 * {@link Worker#announceParked} (state = PARKED, idleCount++) then the re-check {@link Worker#mayPark}
 * (global queue empty, still PARKED); a producer runs {@link Engine#pushGlobal} (publish head, then
 * {@code signalWork}: read idleCount, CAS a PARKED worker to SIGNALLED). Each side writes, then reads what
 * the other writes, so at least one must see the other.
 *
 * <p>Result: r1 = 1 when the worker's re-check decided to park; r2 = the worker's state once both sides are
 * done (1 PARKED: nobody signalled it, 2 SIGNALLED). Deciding to park while no signal ever came is a lost
 * wake-up: the worker would sleep with work in the queue. A signal that lands after the decision is fine:
 * {@code LockSupport.unpark} before {@code park} makes the park return at once.
 *
 * <p>Can fail on x86: the Dekker pattern's hazard is a store followed by a load of another variable, the
 * one reordering x86 (TSO) allows, through its store buffer. With {@code EngineHotFields.head} made a plain
 * field (the producer's publishing store no longer fenced before its read of idleCount), a few tenths of a
 * percent of the samples were lost wake-ups, in every configuration.
 */
@JCStressTest
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "the worker decided to park; the producer saw it idle and signalled it")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the worker saw the work and stays up; the producer saw no idle worker")
@Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "both saw each other: the worker stays up and was signalled too")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "lost wake-up: the worker parks, and the producer signalled nobody")
@Outcome(expect = FORBIDDEN, desc = "impossible state")
@State
public class ParkWakeDekker {
    private final Engine engine = RunFixtures.engine("jcstress-park-wake");
    private final Worker worker = engine.soleWorker();
    private final Work item = new RunFixtures.Item(1);

    /** Creates the state of one sample: an engine with one idle worker and an empty global queue. */
    public ParkWakeDekker() {
    }

    /** The worker going idle: announce PARKED, then re-check whether it may park. */
    @Actor
    public void idleWorker(II_Result r) {
        worker.announceParked();
        r.r1 = worker.mayPark(RunFixtures.NEVER) ? 1 : 0;
    }

    /** A producer on another thread: queue work globally and signal an idle worker. */
    @Actor
    public void producer() {
        engine.pushGlobal(item);
    }

    /** Whether the producer signalled the worker. */
    @Arbiter
    public void signalled(II_Result r) {
        r.r2 = worker.state;
    }
}
