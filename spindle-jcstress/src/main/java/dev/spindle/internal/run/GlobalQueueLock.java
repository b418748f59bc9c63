package dev.spindle.internal.run;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The spin lock every primitive uses ({@link SpinLock}: a CAS from 0 to 1 acquires, {@link SpinLock#lockSlow}
 * spins on opaque reads, a release store of 0 releases), through the engine's global queue: two threads
 * append to it at once ({@link Engine#pushGlobal}), each reading the plain {@code tail} the other may just
 * have written under the lock. Whatever the interleaving, the queue then holds both items.
 *
 * <p>Result: r1, r2 = the payloads of the first two items taken from the queue afterwards (1 and 2, in
 * either order); r3 = 1 when a third item came out. A lost or duplicated item is forbidden.
 *
 * <p>On x86 a plain store releases as well as a release store does, so weakening the release store cannot
 * fail here; a lock that is not one fails (the CAS replaced by a read and a plain store: an item lost in
 * about 100,000 of 2.4 million samples). A weakly ordered machine can also let the next holder read a stale
 * {@code tail} after a plain unlocking store.
 */
@JCStressTest
@Outcome(id = "1, 2, 0", expect = ACCEPTABLE, desc = "both appended, the first actor first")
@Outcome(id = "2, 1, 0", expect = ACCEPTABLE, desc = "both appended, the second actor first")
@Outcome(expect = FORBIDDEN, desc = "an item lost or linked twice")
@State
public class GlobalQueueLock {
    private final Engine engine = RunFixtures.engine("jcstress-global-lock");

    /** Creates the state of one sample: an empty global queue. */
    public GlobalQueueLock() {
    }

    /** One thread queues an item. */
    @Actor
    public void first() {
        engine.pushGlobal(new RunFixtures.Item(1));
    }

    /** Another thread queues an item at the same time. */
    @Actor
    public void second() {
        engine.pushGlobal(new RunFixtures.Item(2));
    }

    /** Takes what the queue holds. */
    @Arbiter
    public void drain(III_Result r) {
        r.r1 = RunFixtures.seen(engine.pollGlobal());
        r.r2 = RunFixtures.seen(engine.pollGlobal());
        r.r3 = engine.pollGlobal() == null ? 0 : 1;
    }
}
