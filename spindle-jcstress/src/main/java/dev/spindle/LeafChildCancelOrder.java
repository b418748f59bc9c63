package dev.spindle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.StressFixtures.Recorder;
import dev.spindle.internal.run.RunAccess;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A leaf child started while its parent is cancelled: {@code FiberJobs.Start} links a child whose job is a
 * {@code Pure.Leaf} without a fence ({@code FiberImpl.addLeafChild}), runs it at once, and only then reads
 * the parent's cancel state ({@code checkLeafChild}); {@code requestCancel} sets the parent's cancel bit,
 * then walks its live children, and then this test's canceller raises a flag. The child's job reads the
 * flag. A child that saw the flag ran after the canceller's walk, so that walk either asked it to cancel
 * or missed its link; the parent's read after the run must then see the bit and ask it. The parent's
 * continuation is on the worker's stack, as in Start, so the child retires by plain stores.
 *
 * <p>Results: whether the child saw the flag, and whether its cancellation was requested once both actors
 * ran. Seeing the flag and never being asked would be a child started after its parent's cancellation
 * that escaped it. Without the read after the run ({@code checkLeafChild} left out) every configuration
 * failed ({@code -m default}: 4.3-99% of samples, mostly a start after a whole cancellation). The other
 * half, the completion's CAS standing in for the fence when the two actors overlap, was not shown failing:
 * removing that CAS would change how every fiber ends.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "ran after the cancel, and was asked to cancel")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "ran before the cancel ended, and was asked to cancel")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "ran and retired before the cancel's walk")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "ran after the cancel, yet was never asked to cancel")
@State
public class LeafChildCancelOrder {
    private final Worker worker;
    private final FiberImpl<Void> parent;
    /** Raised by the canceller once the parent's cancellation (bit and walk) is done. */
    private volatile boolean cancelled;
    /** The child the start actor created; read by the arbiter. */
    private FiberImpl<Boolean> child;

    /** Creates the state of one sample: a running parent with no child. */
    public LeafChildCancelOrder() {
        worker = StressFixtures.soleWorker("jcstress-leaf-child");
        parent = StressFixtures.runningRoot(worker);
    }

    /** The parent's code starts a leaf child and runs it at once, as FiberJobs.Start does. */
    @Actor
    public void start() {
        FiberImpl<Boolean> c = new FiberImpl<>(Job.of(() -> cancelled), worker.engine(), parent, false);
        RunAccess.run(worker, new Work() { // an item of the worker's loop: a full step budget
            @Override
            public void doWork(Worker w) {
                parent.addLeafChild(c);
                w.push(new Recorder(parent)); // the starter's continuation, under the child
                c.doWork(w);
                parent.checkLeafChild(w, c);
            }

            @Override
            public void doHandle(Worker w, Throwable e) {
                throw new AssertionError(e);
            }
        });
        child = c;
    }

    /** Another thread cancels the parent, then says so. */
    @Actor
    public void cancel() {
        parent.requestCancel(null);
        cancelled = true;
    }

    /** Reads what the child saw and whether the cancellation reached it. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = child.valueNow() ? 1 : 0;
        r.r2 = child.isCancelRequested() ? 1 : 0;
    }
}
