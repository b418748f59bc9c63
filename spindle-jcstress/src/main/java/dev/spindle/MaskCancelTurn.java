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
 * A cancellation against a fiber that enters an uncancelable region: {@code requestCancel} that finds the
 * fiber unmasked sets the request and then walks the fiber's children, while the fiber's code masks and
 * then links a child, as a finalizer that starts a helper does. A child linked inside the region belongs
 * to it, so this request must not reach it (the region's end cancels it, not modelled here): the fiber's
 * mask waits out the canceller's turn, so the walk never sees a child linked after the mask.
 *
 * <p>Result: 1 when the child's cancellation was requested once both actors ran. Without the turn ({@code mask}
 * a plain atomic add) 0.01-0.06% of samples gave 1, in each of the four configurations of {@code bin/jcstress}.
 */
@JCStressTest
@Outcome(id = "0", expect = ACCEPTABLE, desc = "the child, linked inside the region, was left alone")
@Outcome(id = "1", expect = FORBIDDEN, desc = "a late canceller's walk reached a child linked under the mask")
@State
public class MaskCancelTurn {
    private final Worker worker;
    private final FiberImpl<Void> parent;
    /** The child the region linked; read by the arbiter. */
    private FiberImpl<Void> child;

    /** Creates the state of one sample: a running parent with no child. */
    public MaskCancelTurn() {
        worker = StressFixtures.soleWorker("jcstress-mask-turn");
        parent = StressFixtures.runningRoot(worker);
    }

    /** The parent's code enters an uncancelable region and starts a child in it. */
    @Actor
    public void region() {
        parent.mask();
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
