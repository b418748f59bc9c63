package dev.spindle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.StressFixtures.Box;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A job awaited by a direct body on a virtual thread ({@code DirectBody.ThreadAwait}): the job's last
 * step, on a worker, writes the plain {@code value}, then the volatile {@code done}, then unparks the body's
 * thread; the body reads {@code done} (its park loop, {@code isStopped}), then the value
 * ({@code outcome()}). Seeing done without the value is forbidden.
 *
 * <p>Result: r1 = 1 when the body saw the await done; r2 = the value's field it then got (-1 no value).
 *
 * <p>On x86 this fails on a wrong order in the code: with the value written after {@code done}, 373 of 2
 * million samples saw the completion without it.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the body looked before the job completed")
@Outcome(id = "1, 42", expect = ACCEPTABLE, desc = "the body saw the completion and its value")
@Outcome(expect = FORBIDDEN, desc = "the completion seen without its value")
@State
public class ThreadAwaitHandOff {
    private final DirectBody.ThreadAwait<Box> await =
            new DirectBody.ThreadAwait<>(StressFixtures.runningRoot(StressFixtures.soleWorker("jcstress-await")));

    /** Creates the state of one sample: an await in progress. */
    public ThreadAwaitHandOff() {
    }

    /** The awaited job completes with a fresh value, on a worker. */
    @Actor
    public void complete() {
        await.doCont(null, new Box(42));
    }

    /** The body's thread checks whether it may stop waiting, then takes the value. */
    @Actor
    public void body(II_Result r) {
        if (await.isStopped()) {
            r.r1 = 1;
            r.r2 = StressFixtures.valueOf(await.outcome());
        }
    }
}
