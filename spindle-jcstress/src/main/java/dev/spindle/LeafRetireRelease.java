package dev.spindle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.internal.run.Worker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import dev.spindle.StressFixtures.Box;
import dev.spindle.StressFixtures.Suspend;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The release store that retires a leaf fiber ({@code FiberImpl.retire()}: {@code PENDING.setRelease(this,
 * 0)}): it must order the fiber's final state (state, and the value in its slot) before the 0 that its
 * parent's sweeps and cancellation walks read. A child fiber of a running parent finishes with a freshly
 * allocated value on one thread, through the real {@code doCont} its job's last step calls; another thread
 * reads the child's {@code pending} as the parent's code does (a volatile read), then its outcome.
 *
 * <p>Result: r1 = pending as read; r2 = 1 when the child then looked finished ({@code isDone}); r3 = the
 * value's field when it looked finished (-1: no value), else 0. Seeing pending == 0 without the final state,
 * or the final state without its value, is forbidden.
 *
 * <p>On x86 this cannot fail through hardware reordering (stores are not reordered with older stores, and
 * loads not with older loads), and with the release store made a plain one it did not fail there either
 * (the volatile writes just before it fence the JIT too); it fails there when the code drops the unit
 * before writing the final state. A weakly ordered machine (AArch64, POWER) can show a plain store's
 * reordering.
 */
@JCStressTest
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "read before the child finished")
@Outcome(id = "1, 1, 42", expect = ACCEPTABLE, desc = "the child finished; its own unit is not dropped yet")
@Outcome(id = "0, 1, 42", expect = ACCEPTABLE, desc = "retired: pending 0, and the final outcome is seen")
@Outcome(id = "0, 0, 0", expect = FORBIDDEN, desc = "pending 0 seen while the child still looks running")
@Outcome(expect = FORBIDDEN, desc = "the final state seen without its value, or an impossible pending")
@State
public class LeafRetireRelease {
    private static final VarHandle PENDING;

    static {
        try {
            PENDING = MethodHandles.privateLookupIn(FiberImpl.class, MethodHandles.lookup())
                    .findVarHandle(FiberImpl.class, "pending", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Worker worker;
    private final FiberImpl<Box> child;

    /** Creates the state of one sample: a running parent with one running (suspended) leaf child. */
    public LeafRetireRelease() {
        worker = StressFixtures.soleWorker("jcstress-retire");
        FiberImpl<Void> parent = StressFixtures.runningRoot(worker);
        // as FiberJobs.Start does for a child fiber
        child = new FiberImpl<>(new Suspend<>(), worker.engine(), parent, false);
        worker.fiberStarted();
        parent.addChild(worker, child);
        child.doWork(worker);
    }

    /** The child's job ends with a value: the fiber completes and retires (its pending drops to 0). */
    @Actor
    public void finish() {
        child.doCont(worker, new Box(42));
    }

    /** The parent's side: read pending, then the outcome. */
    @Actor
    public void observe(III_Result r) {
        int pending = (int) PENDING.getVolatile(child);
        boolean done = child.isDone();
        r.r1 = pending;
        r.r2 = done ? 1 : 0;
        if (done) {
            Box b = child.valueNow();
            r.r3 = b == null ? -1 : b.x;
        }
    }
}
