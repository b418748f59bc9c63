package dev.spindle.bench.soak;

import dev.spindle.Alt;
import dev.spindle.Job;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The end-to-end ledger of one message flow (a channel or a mailbox, with its producers and consumers):
 * message {@code i} of {@code 0..capacity-1} is sent at most once, and every message sent is, at rest, either
 * received exactly once or still in the flow's queue, where the rest check drains it.
 *
 * <p>Why cancellation cannot blur the counts: each mark is made in the same step as the operation it
 * records, with no cancellation point between them. A synchronous give and a take are marked in the
 * {@link Alt#wrap wrap} of their alternative, which runs iff the alternative was committed to (a cancelled
 * give delivers nothing, a cancelled take consumes nothing, a committed one is never dropped). An
 * asynchronous send, which never waits, is marked inside {@link Job#uncancelable} with the send: both
 * happen or neither does. So a message handed over at the moment its producer or consumer is cancelled is
 * still marked on both sides.
 */
final class Flow {
    final String name;
    private final Alt<Integer> take; // takes one message from the flow's queue; used by the drain
    private final AtomicIntegerArray sent;
    private final AtomicIntegerArray received;
    private final AtomicIntegerArray drained;

    /**
     * A flow named {@code name} (the episode that built it) of at most {@code capacity} messages, whose queue
     * {@code take} reads.
     */
    Flow(String name, int capacity, Alt<Integer> take) {
        this.name = name;
        this.take = take;
        this.sent = new AtomicIntegerArray(capacity);
        this.received = new AtomicIntegerArray(capacity);
        this.drained = new AtomicIntegerArray(capacity);
    }

    /** Number of message ids. */
    int capacity() {
        return sent.length();
    }

    /** Marks message {@code id} as handed to the flow. */
    void sent(int id) {
        sent.incrementAndGet(id);
    }

    /** Marks message {@code id} as taken by a consumer. */
    void received(int id) {
        received.incrementAndGet(id);
    }

    /** A job that sends {@code id} asynchronously with {@code send} and marks it, both or neither. */
    Job<Void> sendMarked(int id, Job<Void> send) {
        return Job.uncancelable(send.then(Job.run(() -> sent(id))));
    }

    /** A job, run at rest, that takes every message left in the flow's queue and marks it drained. */
    Job<Void> drain() {
        return Alt.choose(take.wrap(id -> {
            drained.incrementAndGet(id);
            return Boolean.TRUE;
        }), Alt.always(Boolean.FALSE)).flatMap(more -> more ? drain() : Job.unit());
    }

    /** Number of messages sent (for the progress line). */
    int sentCount() {
        int n = 0;
        for (int i = 0; i < capacity(); i++) {
            n += sent.get(i);
        }
        return n;
    }

    /** Number of messages drained at rest. */
    int drainedCount() {
        int n = 0;
        for (int i = 0; i < capacity(); i++) {
            n += drained.get(i);
        }
        return n;
    }

    /**
     * Records a violation for every message sent twice, lost (sent, never received nor drained), taken twice,
     * or taken without having been sent. Call after {@link #drain()}, at rest.
     */
    void check(Violations violations) {
        for (int id = 0; id < capacity(); id++) {
            int s = sent.get(id);
            int r = received.get(id);
            int d = drained.get(id);
            if (s > 1 || r + d != s) {
                violations.add(name + ": message " + id + " sent " + s + "x, received " + r + "x, left in the queue "
                        + d + "x (expected each sent message received or left exactly once)");
            }
        }
    }
}
