package dev.spindle.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How a worker whose local stack never runs dry shares itself with the global queue: at every look
 * ({@link Worker#GLOBAL_CHECK_INTERVAL} items) it takes up to {@link Worker#GLOBAL_TURN} global items in a
 * row while more wait there, then goes back to its stack. One worker of an engine without threads, run on
 * the test thread, so the order is exact.
 */
class GlobalTurnTest {
    private static final int LOCAL_PER_LOOK = Worker.GLOBAL_CHECK_INTERVAL - 1;

    /** Records the kind of every item run: 'L' local, 'G' global. */
    private static final class Trace {
        final StringBuilder kinds = new StringBuilder();
        int localLeft;

        Trace(int localItems) {
            localLeft = localItems;
        }
    }

    /** A local item that pushes the next one until the trace's budget is spent. */
    private static final class Local extends TestWork {
        final Trace trace;

        Local(Trace trace) {
            this.trace = trace;
        }

        @Override
        public void doWork(Worker w) {
            trace.kinds.append('L');
            if (--trace.localLeft > 0) {
                w.push(new Local(trace));
            }
        }
    }

    /** A global item; when {@code refill}, it queues another global item, so the global queue never empties. */
    private static final class Global extends TestWork {
        final Trace trace;
        final boolean refill;

        Global(Trace trace, boolean refill) {
            this.trace = trace;
            this.refill = refill;
        }

        @Override
        public void doWork(Worker w) {
            trace.kinds.append('G');
            if (refill) {
                w.engine.pushGlobal(new Global(trace, true));
            }
        }
    }

    private static Engine engine() {
        return new Engine("turn-test", 1, false, e -> {
            throw new AssertionError(e);
        });
    }

    @Timeout(30)
    @Test
    void aBacklogDrainsInTurnsOfGlobalTurnItemsAtEveryLook() {
        Engine engine = engine();
        Worker w = engine.soleWorker();
        Trace trace = new Trace(1_000);
        int backlog = 3 * Worker.GLOBAL_TURN + 4;
        for (int i = 0; i < backlog; i++) {
            engine.pushGlobal(new Global(trace, false));
        }
        w.push(new Local(trace));

        w.runUntil(() -> !w.hasLocalWork() && !engine.hasGlobalWork());

        String turn = "L".repeat(LOCAL_PER_LOOK) + "G".repeat(Worker.GLOBAL_TURN);
        String expected = turn.repeat(3) + "L".repeat(LOCAL_PER_LOOK) + "GGGG";
        assertThat(trace.kinds.toString()).startsWith(expected);
        assertThat(trace.kinds.chars().filter(c -> c == 'G').count()).isEqualTo(backlog);
        assertThat(trace.kinds.chars().filter(c -> c == 'L').count()).isEqualTo(1_000);
    }

    @Timeout(30)
    @Test
    void aGlobalQueueThatNeverEmptiesStillLeavesTheStackItsShare() {
        Engine engine = engine();
        Worker w = engine.soleWorker();
        Trace trace = new Trace(10 * LOCAL_PER_LOOK);
        for (int i = 0; i < 2 * Worker.GLOBAL_TURN; i++) { // each queues its successor: never fewer than this
            engine.pushGlobal(new Global(trace, true));
        }
        w.push(new Local(trace));

        w.runUntil(() -> !w.hasLocalWork());

        String turn = "L".repeat(LOCAL_PER_LOOK) + "G".repeat(Worker.GLOBAL_TURN);
        assertThat(trace.kinds.toString()).isEqualTo(turn.repeat(9) + "L".repeat(LOCAL_PER_LOOK));
    }
}
