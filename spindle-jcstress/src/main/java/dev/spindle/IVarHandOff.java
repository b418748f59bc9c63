package dev.spindle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.StressFixtures.Box;
import dev.spindle.StressFixtures.Recorder;
import dev.spindle.StressFixtures.Suspend;
import dev.spindle.internal.run.Engine;
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
 * An IVar's fill racing a read, on two engines' workers, through the real {@code fillNow} and
 * {@code read().doJob}. Two hand-offs are checked:
 * <ul>
 *   <li>the double-checked read: {@code result} is written before the volatile {@code state}, so a read
 *       that sees FULL sees the value (and the value's own fields);</li>
 *   <li>the waiter hand-off: a reader that found the IVar empty queued its continuation; the fill resumes
 *       it ({@code Waiter.release}: write {@code Cont.value}, then push the continuation to the reader's
 *       engine's global queue), and the reader's side, taking it from that queue as an idle worker would,
 *       sees the value.</li>
 * </ul>
 *
 * <p>Result: r1 = how the reader got the value (1 at once: the IVar was full; 2 the reader took the resumed
 * continuation from its queue; 3 not yet when the reader stopped looking: taken from the queue after both
 * sides);
 * r2 = the value's field as seen (-1 no value, -2 the continuation never came back, -3 something else
 * came back, -4 the read failed).
 *
 * <p>On x86 the hardware keeps these stores in order, and these loads, but the JIT need not: with
 * {@code IVar.state} made a plain field, the compiled fill or read reorders and this test fails (a read
 * sees FULL without the value). It also fails when the code orders the hand-off wrongly (the value
 * written after the continuation is pushed).
 */
@JCStressTest
@Outcome(id = "1, 42", expect = ACCEPTABLE, desc = "the IVar was full: the read got the value at once")
@Outcome(id = "2, 42", expect = ACCEPTABLE, desc = "the read waited; the reader took the resumed continuation with the value")
@Outcome(id = "3, 42", expect = ACCEPTABLE, desc = "the read waited; the resumed continuation came after the reader looked")
@Outcome(expect = FORBIDDEN, desc = "the reader saw a filled IVar or a resumed continuation without the value, or was never resumed")
@State
public class IVarHandOff {
    /**
     * How many times the reader looks for its resumed continuation (a bounded spin, so the reader watches
     * while the fill hands it over instead of looking once, too early, almost every time).
     */
    private static final int POLLS = 64;

    private final Engine fillerEngine = new Engine("jcstress-filler", 1, false, e -> { });
    private final Worker filler = fillerEngine.soleWorker();
    private final Engine readerEngine = new Engine("jcstress-reader", 1, false, e -> { });
    private final Worker reader = readerEngine.soleWorker();
    private final IVar<Box> ivar = new IVar<>();
    private final Recorder k = new Recorder(new FiberImpl<>(new Suspend<>(), readerEngine, null, false));
    private final Work read = new Work() {
        @Override
        public void doWork(Worker w) {
            ivar.read().doJob(w, k);
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            k.failure = e;
        }
    };
    /** How the reader actor got the value (r1); written by it, read by the arbiter. */
    private int how;

    /** Creates the state of one sample: an empty IVar, a reader fiber on one engine, a filler on another. */
    public IVarHandOff() {
    }

    /** Fills the IVar with a freshly allocated value, resuming a waiting reader. */
    @Actor
    public void fill() {
        ivar.fillNow(filler, new Box(42));
    }

    /** Reads the IVar; if the read had to wait, watches its engine's queue a while for the resumed continuation. */
    @Actor
    public void read(II_Result r) {
        RunAccess.run(reader, read);
        if (k.values > 0) {
            how = 1;
            r.r2 = StressFixtures.valueOf(k.got);
            return;
        }
        Work resumed = null;
        for (int i = 0; i < POLLS && resumed == null; i++) {
            resumed = RunAccess.pollGlobal(readerEngine);
            Thread.onSpinWait();
        }
        if (resumed == null) {
            how = 3;
            return;
        }
        how = 2;
        r.r2 = resumed == k ? StressFixtures.valueOf(k.resumeValue()) : -3;
    }

    /** Records how the value came, and collects a resumption that came after the reader looked. */
    @Arbiter
    public void collect(II_Result r) {
        r.r1 = how;
        if (how == 3) {
            Work resumed = RunAccess.pollGlobal(readerEngine);
            r.r2 = resumed == k ? StressFixtures.valueOf(k.resumeValue()) : -2;
        }
        if (k.failure != null) {
            r.r2 = -4;
        }
    }
}
