package dev.spindle.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How a worker whose local stack never runs dry shares itself with the global queue: at every look
 * ({@link Worker#GLOBAL_CHECK_INTERVAL} items) it takes up to {@link Worker#GLOBAL_TURN} global items in a
 * row while more wait there, then goes back to its stack; and how its inbox, which other workers may keep
 * filling (forwarded wake-ups of direct bodies), shares the looks with the global queue. One worker of an
 * engine without threads, run on the test thread, so the order is exact.
 */
class GlobalTurnTest {
    private static final int LOCAL_PER_LOOK = Worker.GLOBAL_CHECK_INTERVAL - 1;

    /** Records the kind of every item run: 'L' local, 'G' global, 'I' handed over through the inbox. */
    private static final class Trace {
        final StringBuilder kinds = new StringBuilder();
        int localLeft;
        int inboxLeft = Integer.MAX_VALUE;

        Trace(int localItems) {
            localLeft = localItems;
        }
    }

    /**
     * An item that queues the next of its kind until the trace's budget for that kind is spent: on the local
     * stack ('L'), or through the inbox ('I'), as another worker hands over a woken direct body.
     */
    private static final class Chained extends TestWork {
        final Trace trace;
        final boolean viaInbox;

        Chained(Trace trace, boolean viaInbox) {
            this.trace = trace;
            this.viaInbox = viaInbox;
        }

        @Override
        public void doWork(Worker w) {
            trace.kinds.append(viaInbox ? 'I' : 'L');
            if (viaInbox ? --trace.inboxLeft > 0 : --trace.localLeft > 0) {
                Chained next = new Chained(trace, viaInbox);
                if (viaInbox) {
                    w.pushInbox(next);
                } else {
                    w.push(next);
                }
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

    /** Queues {@code n} global items, each of which queues another when {@code refill}. */
    private static void queueGlobal(Engine engine, Trace trace, int n, boolean refill) {
        for (int i = 0; i < n; i++) {
            engine.pushGlobal(new Global(trace, refill));
        }
    }

    @Timeout(30)
    @Test
    void aBacklogDrainsInTurnsOfGlobalTurnItemsAtEveryLook() {
        Engine engine = engine();
        Worker w = engine.soleWorker();
        Trace trace = new Trace(1_000);
        int backlog = 3 * Worker.GLOBAL_TURN + 4;
        queueGlobal(engine, trace, backlog, false);
        w.push(new Chained(trace, false));

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
        queueGlobal(engine, trace, 2 * Worker.GLOBAL_TURN, true); // each queues its successor: never fewer
        w.push(new Chained(trace, false));

        w.runUntil(() -> !w.hasLocalWork());

        String turn = "L".repeat(LOCAL_PER_LOOK) + "G".repeat(Worker.GLOBAL_TURN);
        assertThat(trace.kinds.toString()).isEqualTo(turn.repeat(9) + "L".repeat(LOCAL_PER_LOOK));
    }

    @Timeout(30)
    @Test
    void anInboxThatNeverEmptiesLeavesTheGlobalQueueALook() {
        Engine engine = engine();
        Worker w = engine.soleWorker();
        Trace trace = new Trace(0);
        trace.inboxLeft = 200;
        engine.pushGlobal(new Global(trace, false));
        w.pushInbox(new Chained(trace, true));

        w.runUntil(() -> trace.inboxLeft == 0);

        String beforeLook = "I".repeat(Worker.GLOBAL_CHECK_INTERVAL - 1);
        assertThat(trace.kinds.toString()).isEqualTo(beforeLook + "G" + "I".repeat(200 - beforeLook.length()));
    }

    @Timeout(30)
    @Test
    void looksAlternateBetweenTheGlobalQueueAndTheInboxWhenBothNeverEmpty() {
        Engine engine = engine();
        Worker w = engine.soleWorker();
        Trace trace = new Trace(8 * LOCAL_PER_LOOK);
        queueGlobal(engine, trace, 2 * Worker.GLOBAL_TURN, true);
        w.pushInbox(new Chained(trace, true));
        w.push(new Chained(trace, false));

        w.runUntil(() -> trace.localLeft == 0);

        String locals = "L".repeat(LOCAL_PER_LOOK);
        String round = locals + "G".repeat(Worker.GLOBAL_TURN) + locals + "I";
        assertThat(trace.kinds.toString()).isEqualTo(round.repeat(3) + locals + "G".repeat(Worker.GLOBAL_TURN)
                + locals);
    }
}
