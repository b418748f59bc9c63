package dev.spindle.internal.run;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The worker's inbox, a Treiber stack: {@link Worker#pushInbox} writes the item's {@code next} link with a
 * plain store before the CAS that publishes the item ("CAS piggyback"), and the owner takes the whole
 * stack with one swap ({@code pollInbox}, through {@link Worker#nextWork}) and then follows those plain
 * links. An item already waits in the inbox; another thread pushes a second one, allocated there, while
 * the owner takes items twice. The owner must see the link to the first item and the second item's
 * payload, both plain fields written before the publishing CAS.
 *
 * <p>Result: r1, r2 = the payloads of the items the owner's two takes returned (0 none, -1 an item without
 * its payload; the first item's payload is 1, the second's 2). Taking the second item without the first
 * behind it (2, 0) is a lost item.
 *
 * <p>On x86 the hardware keeps the stores in order and the JIT does not move a store after the CAS, so
 * this fails there on a wrong order in the code: with the link written after the CAS, the first item was
 * lost (2, 0) in 456 of 1.7 million samples.
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the owner took the first item before the push")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "the owner took the first item, then the pushed one")
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "the owner took both at once: the pushed one, then the first")
@Outcome(expect = FORBIDDEN, desc = "an item lost, taken twice, or seen without its payload")
@State
public class InboxPushTake {
    private final Worker worker = RunFixtures.engine("jcstress-inbox").soleWorker();

    /** Creates the state of one sample: an idle worker with one item in its inbox. */
    public InboxPushTake() {
        worker.pushInbox(new RunFixtures.Item(1));
    }

    /** Another thread hands the worker a freshly allocated item. */
    @Actor
    public void pusher() {
        worker.pushInbox(new RunFixtures.Item(2));
    }

    /** The worker, with an empty local stack, takes its next item twice (the inbox comes first). */
    @Actor
    public void owner(II_Result r) {
        r.r1 = RunFixtures.seen(worker.nextWork());
        r.r2 = RunFixtures.seen(worker.nextWork());
    }
}
