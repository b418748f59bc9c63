package dev.spindle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.internal.run.Worker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * Linking a child while the parent is cancelled: {@code FiberImpl.addChild} on a parent with no live child
 * takes the plain-store path (publish the child in the list, full fence, then read the parent's cancel
 * state), and {@code requestCancel} sets the parent's cancel bit, then walks its children. One of the two
 * must see the other, so the child is always asked to cancel. The child is created in the same actor, as
 * {@code FiberJobs.Start} does, so the canceller's walk also relies on the constructor's plain store of the
 * child's {@code pending} (1) being ordered before the store that links the child: a child read as
 * retired ({@code pending == 0}) is skipped.
 *
 * <p>Result: 1 when the child's cancellation was requested once both actors ran. On x86 the fence is what
 * keeps the parent's read of its cancel state from passing the store that publishes the child.
 */
@JCStressTest
@Outcome(id = "1", expect = ACCEPTABLE, desc = "the child was asked to cancel")
@Outcome(id = "0", expect = FORBIDDEN, desc = "the child was missed by the cancellation")
@State
public class AddChildCancelDekker {
    private final Worker worker;
    private final FiberImpl<Void> parent;
    /** The child the start actor created; read by the arbiter. */
    private FiberImpl<Void> child;

    /** Creates the state of one sample: a running parent with no child. */
    public AddChildCancelDekker() {
        worker = StressFixtures.soleWorker("jcstress-add-child");
        parent = StressFixtures.runningRoot(worker);
    }

    /** The parent's code creates a child and links it, as FiberJobs.Start does. */
    @Actor
    public void start() {
        child = StressFixtures.linkChild(worker, parent);
    }

    /** Another thread cancels the parent. */
    @Actor
    public void cancel() {
        parent.requestCancel(null);
    }

    /** Reads whether the cancellation reached the child. */
    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = child.isCancelRequested() ? 1 : 0;
    }
}
