package dev.spindle.internal.run;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * The count of live fibers that {@code Engine.close()} waits on: each worker counts the fibers it starts
 * and finishes in two owner-only fields with release stores ({@link Worker#fiberStarted},
 * {@link Worker#fiberFinished}), and {@link Engine#liveFibers} reads every finished count, then every
 * started count, with acquire loads. A fiber counted finished was counted started before, so the difference
 * never under-counts: a negative count (or a zero while a fiber runs) would let close() stop the workers
 * under a live fiber. Here a fiber starts and finishes on the worker while another thread counts.
 *
 * <p>Result: r1 = liveFibers() as read. 0 before the start or after the finish, 1 in between; -1 is the
 * under-count.
 *
 * <p>On x86 the hardware keeps the stores in order, and the loads; the test fails there when the reads
 * are in the wrong order (started before finished: -1 in 206 of 2.2 million samples). A weakly ordered
 * machine needs the release and acquire modes too.
 */
@JCStressTest
@Outcome(id = "0", expect = ACCEPTABLE, desc = "counted before the fiber started or after it finished")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "counted while the fiber ran")
@Outcome(expect = FORBIDDEN, desc = "an under-count: the finish seen without the start")
@State
public class LiveFibersCount {
    private final Engine engine = RunFixtures.engine("jcstress-live");
    private final Worker worker = engine.soleWorker();

    /** Creates the state of one sample: an engine with no fiber. */
    public LiveFibersCount() {
    }

    /** A fiber starts and finishes on the worker. */
    @Actor
    public void fiber() {
        worker.fiberStarted();
        worker.fiberFinished();
    }

    /** close()'s check, on another thread. */
    @Actor
    public void count(I_Result r) {
        r.r1 = (int) engine.liveFibers();
    }
}
