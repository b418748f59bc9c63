package dev.spindle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.internal.select.Pick;
import dev.spindle.internal.select.Waiter;

import dev.spindle.StressFixtures.Box;
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
 * The hand-over of a choose's resumption ({@code Pick}'s overview, "Handing over the resumption"): a
 * partner on another engine commits a waiter of the choose and resumes it through the real
 * {@code Waiter.commit} and {@code Waiter.release} (the branch's {@code Cont.value} written, then
 * {@code Pick.resume}: the plain {@code handed} written before the CAS of {@code phase} from INSTANTIATING to
 * HANDED, or a push to the chooser's engine when that CAS loses), while the chooser ends its instantiation
 * ({@code Pick.instantiated}: CAS of {@code phase} to BLOCKED, or, losing it, a read of {@code handed} pushed
 * on its own worker). Exactly one of them queues the resumption, and the chooser sees it with its value.
 *
 * <p>Result: r1 = where the chooser's resumption came from (1 handed over on its own worker, 2 pushed to its
 * engine's queue by the picker, -1 the chooser pushed nothing it could run); r2 = the value's field as
 * seen (-1 no value, -2 nothing came, -3 something else came, -4 the resumption came twice).
 *
 * <p>On x86 the stores before the CAS stay before it, so this fails only on a wrong order in the code: with
 * {@code handed} written after the CAS, the chooser pushed a null (-1) in 475 of 560,000 samples.
 */
@JCStressTest
@Outcome(id = "1, 42", expect = ACCEPTABLE, desc = "picked while instantiating: the chooser ran the handed resumption")
@Outcome(id = "2, 42", expect = ACCEPTABLE, desc = "picked after the chooser blocked: the picker pushed the resumption")
@Outcome(expect = FORBIDDEN, desc = "the resumption lost, doubled, or seen without its value")
@State
public class PickHandOver {
    private final Worker chooser = StressFixtures.soleWorker("jcstress-chooser");
    private final Worker picker = StressFixtures.soleWorker("jcstress-picker");
    private final Recorder k = new Recorder(StressFixtures.runningRoot(chooser));
    private final Pick pick = Pick.begin(chooser, k, new Channel<Box>().take());
    /** The choose's alternative waiting in some primitive's queue: alternative 0, resuming k. */
    private final Waiter<Box> waiter = new Waiter<>(k, pick, 0, null);
    /** r1, written by the chooser actor. */
    private int how;

    /** Creates the state of one sample: a choose still instantiating, with one waiter queued. */
    public PickHandOver() {
    }

    /** A partner (a fill, a send) commits the waiter and resumes it with a fresh value. */
    @Actor
    public void picker() {
        if (Waiter.commit(waiter)) {
            Waiter.release(picker, waiter, new Box(42));
        }
    }

    /** The chooser runs out of alternatives; then its worker looks at its stack. */
    @Actor
    public void chooser(II_Result r) {
        try {
            pick.instantiated(chooser);
        } catch (NullPointerException nothingHanded) {
            how = -1;
            return;
        }
        Work wk = RunAccess.popLocal(chooser);
        if (wk != null) {
            how = 1;
            r.r2 = wk == k ? StressFixtures.valueOf(k.resumeValue()) : -3;
        }
    }

    /** Collects a resumption the picker pushed, and checks that nothing else came. */
    @Arbiter
    public void collect(II_Result r) {
        r.r1 = how;
        if (how == 0) {
            Work wk = RunAccess.pollGlobal(chooser.engine());
            r.r1 = 2;
            r.r2 = wk == null ? -2 : wk == k ? StressFixtures.valueOf(k.resumeValue()) : -3;
        }
        if (RunAccess.popLocal(chooser) != null || RunAccess.pollGlobal(chooser.engine()) != null) {
            r.r2 = -4;
        }
    }
}
