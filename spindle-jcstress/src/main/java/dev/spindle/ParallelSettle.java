package dev.spindle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.StressFixtures.Box;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.RunAccess;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A race of two child fibers finishing at once on two threads ({@code Parallel.Run}, policy FIRST): each
 * child's completion callback runs {@code childDone}: the first to win the CAS of {@code decided} writes the
 * plain {@code winner}, and each then decrements {@code remaining} (atomic); the last one reads
 * {@code winner} and the winner's value, which the other thread may have written, and resumes the parent.
 * The overview's argument: the decrements are one chain of atomic operations, so the settler's writes come
 * before the last finisher's reads.
 *
 * <p>Result: r1 = 1 when the parent was resumed with Left (the first child won), 2 with Right; r2 = the
 * value it carried; r3 = how many times the parent was resumed. The value must be the winner's own.
 *
 * <p>On x86 this fails on a wrong order in the code: with each callback decrementing {@code remaining}
 * before it settles, the last finisher read no winner and the parent was never resumed in 16,406 of 1.7
 * million samples.
 */
@JCStressTest
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "the first child won; its value came with Left")
@Outcome(id = "2, 2, 1", expect = ACCEPTABLE, desc = "the second child won; its value came with Right")
@Outcome(expect = FORBIDDEN, desc = "a value not the winner's, no resumption, or two")
@State
public class ParallelSettle {
    private final Worker home = StressFixtures.soleWorker("jcstress-race");
    private final Worker leftWorker = StressFixtures.soleWorker("jcstress-race-left");
    private final Worker rightWorker = StressFixtures.soleWorker("jcstress-race-right");
    private final Hold left = new Hold();
    private final Hold right = new Hold();
    private final Resumed resumed;

    /** Creates the state of one sample: a race of two children that have started and wait. */
    public ParallelSettle() {
        FiberImpl<Void> parent = StressFixtures.runningRoot(home);
        resumed = new Resumed(parent);
        new Parallel.Run<Box, Object>(Parallel.Policy.FIRST, resumed, 2).start(home, parent, List.of(left, right));
        RunAccess.runLocal(home); // starts both children
    }

    /** The first child finishes on one worker, which then runs its completion callback. */
    @Actor
    public void finishLeft() {
        left.fiber.doCont(leftWorker, new Box(1));
        RunAccess.runLocal(leftWorker);
    }

    /** The second child finishes on another worker at the same time. */
    @Actor
    public void finishRight() {
        right.fiber.doCont(rightWorker, new Box(2));
        RunAccess.runLocal(rightWorker);
    }

    /** Runs the parent's resumption (queued on its engine) and records what it got. */
    @Arbiter
    public void collect(III_Result r) {
        Work wk;
        while ((wk = RunAccess.pollGlobal(home.engine())) != null) {
            RunAccess.run(home, wk);
        }
        r.r3 = resumed.count;
        if (resumed.value instanceof Either.Left<?, ?> l) {
            r.r1 = 1;
            r.r2 = StressFixtures.valueOf((Box) l.value());
        } else if (resumed.value instanceof Either.Right<?, ?> rt) {
            r.r1 = 2;
            r.r2 = StressFixtures.valueOf((Box) rt.value());
        } else {
            r.r1 = resumed.value == null ? 0 : -1;
        }
    }

    /** A child's job: keeps its fiber running, and remembers the fiber so that an actor can finish it. */
    private static final class Hold extends Job<Box> {
        FiberImpl<Box> fiber;

        @Override
        void doJob(Worker w, Cont<Box> k) {
            fiber = (FiberImpl<Box>) k; // a fiber's first run passes itself as its job's continuation
        }
    }

    /** The parent's continuation: records what the race resumed it with. */
    private static final class Resumed extends Cont<Object> {
        Object value;
        int count;

        Resumed(FiberImpl<?> parent) {
            super(parent);
        }

        @Override
        public void doCont(Worker w, Object v) {
            value = v;
            count++;
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            value = e;
            count++;
        }
    }
}
