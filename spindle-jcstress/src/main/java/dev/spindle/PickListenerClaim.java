package dev.spindle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.internal.select.Pick;
import dev.spindle.internal.select.PickListener;
import dev.spindle.internal.select.Waiter;

import dev.spindle.StressFixtures.Box;
import dev.spindle.StressFixtures.Recorder;
import dev.spindle.internal.run.Worker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The claim that guards a pick's listeners ({@code Pick}'s overview, "Memory ordering"): the chooser adds a
 * listener (a {@code withNack}'s nack, an {@code after}'s timer) with {@code Pick.addListener} (claim by CAS,
 * push on the plain {@code listeners} list, release store of AVAILABLE), while a partner on another thread
 * commits an earlier alternative through the real {@code Waiter.commit} (CAS to CLAIMED, then a release
 * store of PICKED) and fires the losing listeners from the plain list ({@code Waiter.release}). A listener
 * that was added must be fired; one that was refused (the pick already taken) must not.
 *
 * <p>Result: r1 = 1 when {@code addListener} added the listener; r2 = how many times it fired.
 *
 * <p>On x86 a plain store releases as a release store does, so weakening the release stores cannot fail
 * here; a weakly ordered machine could let the picker read the list without the listener. It fails on a
 * wrong order in the code: with the claim released before the push, 56,407 of 1.9 million samples lost
 * the nack.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "added before the pick, fired by the picker")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "refused: the pick was already taken")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "a nack lost: added, and the picker never fired it")
@Outcome(expect = FORBIDDEN, desc = "fired without being added, or twice")
@State
public class PickListenerClaim {
    private final Worker chooser = StressFixtures.soleWorker("jcstress-chooser");
    private final Worker picker = StressFixtures.soleWorker("jcstress-picker");
    private final Recorder k = new Recorder(StressFixtures.runningRoot(chooser));
    private final Pick pick = Pick.begin(chooser, k, new Channel<Box>().take());
    /** Alternative 0, waiting in some primitive's queue. */
    private final Waiter<Box> waiter = new Waiter<>(k, pick, 0, null);
    /** A nack covering the alternatives from 1 on: alternative 0 committing fires it. */
    private final CountingListener nack = new CountingListener(1);

    /** Creates the state of one sample: a choose still instantiating, with alternative 0 queued. */
    public PickListenerClaim() {
    }

    /** The chooser registers the nack of its next alternatives. */
    @Actor
    public void chooser(II_Result r) {
        r.r1 = pick.addListener(nack) ? 1 : 0;
    }

    /** A partner commits alternative 0 and fires the losing listeners. */
    @Actor
    public void picker() {
        if (Waiter.commit(waiter)) {
            Waiter.release(picker, waiter, new Box(42));
        }
    }

    /** How often the nack fired. */
    @Arbiter
    public void fired(II_Result r) {
        r.r2 = nack.fired;
    }

    /** A listener that counts its firings (on the picker's thread; read by the arbiter). */
    private static final class CountingListener extends PickListener {
        int fired;

        CountingListener(int first) {
            super(first);
        }

        @Override
        protected void fire(Worker w) {
            fired++;
        }
    }
}
