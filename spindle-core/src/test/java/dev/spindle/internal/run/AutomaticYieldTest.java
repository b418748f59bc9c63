package dev.spindle.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The automatic yield of {@link Worker#bounce}: a busy item goes behind other work once per
 * {@link Worker#BOUNCES_PER_YIELD} bounces, and only when this worker has other work to run; alone, it
 * stays on the local stack (queueing it globally would only wake an idle worker to race for it). One
 * worker of an engine without threads, driven on the test thread.
 */
class AutomaticYieldTest {
    /** An item that does nothing; only where it is queued matters. */
    private static final class Item extends Work {
        @Override
        public void doWork(Worker w) {
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            throw new AssertionError(e);
        }
    }

    private final Engine engine = new Engine("yield-test", 1, false, e -> {
        throw new AssertionError(e);
    });
    private final Worker w = engine.soleWorker();

    /** Bounces {@code busy} as often as a yield period asks, taking it back off the stack each time. */
    private void bounceAlone(Item busy, int times) {
        for (int i = 0; i < times; i++) {
            w.bounce(busy);
            assertThat(w.popIfTop(busy)).as("bounce %d stays local", i + 1).isTrue();
        }
    }

    @Test
    void aBusyItemAloneNeverLeavesItsWorker() {
        Item busy = new Item();
        bounceAlone(busy, 3 * Worker.BOUNCES_PER_YIELD);
        assertThat(engine.hasGlobalWork()).isFalse();
    }

    @Test
    void itYieldsAtTheFirstBounceAfterOtherWorkArrives() {
        Item busy = new Item();
        bounceAlone(busy, 2 * Worker.BOUNCES_PER_YIELD); // a period passed with nothing to yield to
        Item other = new Item();
        w.push(other);
        w.bounce(busy);
        assertThat(engine.pollGlobal()).as("the busy item, behind the other work").isSameAs(busy);
        assertThat(w.popIfTop(other)).isTrue();
    }

    @Test
    void withOtherWorkItYieldsOncePerPeriod() {
        Item busy = new Item();
        Item other = new Item();
        w.push(other);
        for (int round = 0; round < 3; round++) {
            for (int i = 1; i < Worker.BOUNCES_PER_YIELD; i++) {
                w.bounce(busy);
                assertThat(w.popIfTop(busy)).as("round %d, bounce %d stays local", round, i).isTrue();
            }
            w.bounce(busy);
            assertThat(engine.pollGlobal()).as("round %d: the period's last bounce yields", round)
                    .isSameAs(busy);
        }
    }
}
