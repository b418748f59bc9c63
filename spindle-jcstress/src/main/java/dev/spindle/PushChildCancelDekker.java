package dev.spindle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.internal.run.Worker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Linking a child while another child is live, against the parent's cancellation: {@code FiberImpl.addChild}
 * then takes {@code pushChild} (an atomic add to {@code pending}, a CAS pushing the child on
 * {@code firstChild}, then the read of the parent's cancel state), and {@code requestCancel} sets the cancel
 * bit, then walks the children. The child is created in the same actor, so the walk also relies on the
 * constructor's plain store of its {@code pending} being published by the CAS. The plain-store path (no
 * live child) is {@link AddChildCancelDekker}.
 *
 * <p>Result: r1 = 1 when the new child's cancellation was requested; r2 = 1 when the older child's was.
 * Either child missed is forbidden.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both children were asked to cancel")
@Outcome(expect = FORBIDDEN, desc = "a child was missed by the cancellation")
@State
public class PushChildCancelDekker {
    private final Worker worker;
    private final FiberImpl<Void> parent;
    private final FiberImpl<Void> older;
    /** The child the start actor created; read by the arbiter. */
    private FiberImpl<Void> child;

    /** Creates the state of one sample: a running parent with one live child. */
    public PushChildCancelDekker() {
        worker = StressFixtures.soleWorker("jcstress-push-child");
        parent = StressFixtures.runningRoot(worker);
        older = StressFixtures.linkChild(worker, parent);
    }

    /** The parent's code creates a second child and links it, as FiberJobs.Start does. */
    @Actor
    public void start() {
        child = StressFixtures.linkChild(worker, parent);
    }

    /** Another thread cancels the parent. */
    @Actor
    public void cancel() {
        parent.requestCancel(null);
    }

    /** Reads whether the cancellation reached both children. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = child.isCancelRequested() ? 1 : 0;
        r.r2 = older.isCancelRequested() ? 1 : 0;
    }
}
