package dev.spindle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Worker;
import dev.spindle.StressFixtures.Box;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The joiner lock that shares {@code FiberImpl}'s state word: a fiber finishing (one CAS from ACTIVE to its
 * final state) races with a joiner that adds itself ({@code tryAddJoiner}, under the lock while ACTIVE)
 * and is then withdrawn, as cancelling the joining fiber does ({@code removeWaiter}, under the lock, giving
 * up once the fiber is final). Whatever the interleaving, a joiner that was added is handed back exactly
 * once: resumed with the value by the finisher, or returned to the canceller; and one that was refused
 * saw the fiber finished, and continues at once with the fiber's value, as {@code FiberJobs.Join} does: the
 * refusal is {@code SpinLock.lockWhile}'s acquire load of the final state, which the finisher's CAS wrote
 * after the value. (Two actors, so that it runs on two CPUs; the finisher can meet the lock held by either
 * step.)
 *
 * <p>Result: r1 = 1 when {@code tryAddJoiner} added the joiner; r2 = the value's field the joiner got,
 * resumed by the finisher or at once when refused (0 none, -1 refused without the value); r3 = 1 when the
 * canceller got it back.
 *
 * <p>With the value written after the final state, 231 of 1.6 million samples refused the joiner and
 * showed it no value.
 */
@JCStressTest
@Outcome(id = "1, 42, 0", expect = ACCEPTABLE, desc = "joined, then resumed by the finisher")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "joined, then withdrawn before the fiber finished")
@Outcome(id = "0, 42, 0", expect = ACCEPTABLE, desc = "the fiber had finished: the joiner continues at once with its value")
@Outcome(expect = FORBIDDEN, desc = "a joiner lost, handed back twice, or resumed without joining")
@State
public class JoinFinishWithdraw {
    private final Worker worker;
    private final FiberImpl<Box> child;
    private final FiberImpl<Void> joinerFiber;
    private final Cont<Box> joiner;
    private boolean joined;
    private boolean withdrawn;
    /** The value a refused joiner continued with (r2); written by the joining actor. */
    private int valueAtOnce;

    /** Creates the state of one sample: a running fiber, and a fiber about to join it. */
    public JoinFinishWithdraw() {
        worker = StressFixtures.soleWorker("jcstress-join");
        child = StressFixtures.runningRoot(worker);
        joinerFiber = StressFixtures.runningRoot(worker);
        joiner = new Cont<>(joinerFiber) {
            @Override
            public void doCont(Worker w, Box b) {
            }

            @Override
            public void doHandle(Worker w, Throwable e) {
            }
        };
    }

    /** The child's job ends with a value: the fiber finishes and resumes its joiners. */
    @Actor
    public void finish() {
        child.doCont(worker, new Box(42));
    }

    /**
     * A join that finds the fiber running adds its continuation; then the joining fiber is cancelled, which
     * withdraws the continuation if it is still waiting.
     */
    @Actor
    public void joinThenWithdraw() {
        joined = child.tryAddJoiner(joiner);
        if (!joined) {
            valueAtOnce = StressFixtures.valueOf(child.valueNow());
        }
        withdrawn = child.removeWaiter(joinerFiber) == joiner;
    }

    /** Reads who handed the joiner back. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = joined ? 1 : 0;
        Box b = joiner.resumeValue();
        r.r2 = joined ? (b == null ? 0 : b.x) : valueAtOnce;
        r.r3 = withdrawn ? 1 : 0;
    }
}
