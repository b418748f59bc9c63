package dev.spindle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.StressFixtures.Box;
import dev.spindle.internal.run.RunAccess;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A direct body's inline await ({@code ContinuationBody}, continuation backend) completed on another worker: the
 * completer runs the real {@code doCont} (plain {@code value}, then {@code completed}: CAS of {@code state}
 * from INLINE to DONE, or, losing it to a body that has detached, a plain-mode store of RESUMING and a push
 * to the home worker's inbox); the home thread, its job having returned, runs the last line of the private
 * {@code startAwait}: wait (CAS INLINE to DETACHED) unless the state is DONE, in which case it takes the
 * value. That line runs inside the body's continuation after the awaited job, which a jcstress actor
 * cannot drive, so this actor repeats it on the real {@code state} field (the smallest faithful extract);
 * the state constants are read from {@code ContinuationBody} itself.
 *
 * <p>Result: r1 = how the home side got the value (1 at once: DONE; 2 it detached and its worker then took
 * the body's next step, RESUMING, from its inbox); r2 = the value's field as seen (-1 no value, -2 no step
 * queued, -3 a step in another state).
 *
 * <p>Needs the continuation backend's flag ({@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED},
 * which bin/jcstress passes). On x86 the stores before the CAS stay before it. With the value written after
 * {@code completed} (a wrong order in the code), nothing failed in 43,000 samples: the window is one
 * store wide, so this test guards the order only on a weakly ordered machine or with luck.
 */
@JCStressTest
@Outcome(id = "1, 42", expect = ACCEPTABLE, desc = "completed while inline: the await returns the value without yielding")
@Outcome(id = "2, 42", expect = ACCEPTABLE, desc = "the body detached first: its next step came through the inbox with the value")
@Outcome(expect = FORBIDDEN, desc = "the value missing, or the body's next step lost")
@State
public class DirectAwaitComplete {
    private static final VarHandle STATE;
    private static final byte INLINE;
    private static final byte DONE;
    private static final byte DETACHED;
    private static final byte RESUMING;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.privateLookupIn(ContinuationBody.class, MethodHandles.lookup());
            STATE = l.findVarHandle(ContinuationBody.class, "state", byte.class);
            INLINE = (byte) l.findStaticVarHandle(ContinuationBody.class, "INLINE", byte.class).get();
            DONE = (byte) l.findStaticVarHandle(ContinuationBody.class, "DONE", byte.class).get();
            DETACHED = (byte) l.findStaticVarHandle(ContinuationBody.class, "DETACHED", byte.class).get();
            RESUMING = (byte) l.findStaticVarHandle(ContinuationBody.class, "RESUMING", byte.class).get();
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Worker home = StressFixtures.soleWorker("jcstress-direct-home");
    private final Worker completer = StressFixtures.soleWorker("jcstress-direct-completer");
    private final ContinuationBody<Box> body;
    /** r1, written by the home actor. */
    private int how;

    /** Creates the state of one sample: a body whose awaited job is running inline, and has queued it. */
    public DirectAwaitComplete() {
        FiberImpl<Box> fiber = StressFixtures.runningRoot(home);
        body = new ContinuationBody<>(() -> null, fiber, home);
        STATE.setVolatile(body, INLINE); // startAwait's first step, before the job can see the body
    }

    /** The awaited job completes with a fresh value on another worker. */
    @Actor
    public void complete() {
        body.doCont(completer, new Box(42));
    }

    /** The home thread, back from running the job: DONE means the value is there, else detach. */
    @Actor
    public void home(II_Result r) {
        boolean waits = (byte) STATE.getVolatile(body) != DONE && STATE.compareAndSet(body, INLINE, DETACHED);
        if (!waits) {
            how = 1;
            r.r2 = StressFixtures.valueOf((Box) body.resumeValue());
        }
    }

    /** A detached body: its worker takes the next step from its inbox, and the step sees the value. */
    @Arbiter
    public void resume(II_Result r) {
        r.r1 = how;
        if (how == 0) {
            r.r1 = 2;
            Work step = RunAccess.nextWork(home);
            r.r2 = step != body ? -2 : (byte) STATE.getVolatile(body) != RESUMING ? -3
                    : StressFixtures.valueOf((Box) body.resumeValue());
        }
    }
}
