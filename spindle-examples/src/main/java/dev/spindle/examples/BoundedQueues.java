package dev.spindle.examples;

import dev.spindle.Alt;
import dev.spindle.BoundedMailbox;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Back-pressure with a {@link BoundedMailbox}: its {@code send} waits while the mailbox is full, so a fast
 * producer runs at the pace of a slow consumer, and never more than the capacity sits in between. Both
 * {@code send} and {@code take} are alternatives: offered in {@link Alt#choose} against a timeout, a send
 * that loses adds nothing.
 */
public final class BoundedQueues {
    private BoundedQueues() {
    }

    /** What {@link #pipeline} saw: the items in the order the consumer got them, and the fullest queue. */
    record Pipeline(List<Integer> received, int mostQueued) {
    }

    /**
     * A producer sends {@code items} numbers as fast as it can through a mailbox of {@code capacity} places
     * to a consumer that spends {@code work} on each. The producer waits whenever the mailbox is full.
     */
    static Job<Pipeline> pipeline(int items, int capacity, Duration work) {
        BoundedMailbox<Integer> queue = new BoundedMailbox<>(capacity, "work");
        int[] mostQueued = {0}; // written by the producer only, read after it is joined
        List<Integer> received = new ArrayList<>(); // written by the consumer only, read after it is joined
        Job<Void> producer = produce(queue, 0, items, mostQueued);
        Job<Void> consumer = consume(queue, items, work, received);
        return producer.start().flatMap(p -> consumer.then(p.join()))
                .map(v -> new Pipeline(received, mostQueued[0]));
    }

    private static Job<Void> produce(BoundedMailbox<Integer> queue, int i, int items, int[] mostQueued) {
        if (i == items) {
            return Job.unit();
        }
        return queue.send(i)                                   // waits while the queue is full
                .then(Job.run(() -> mostQueued[0] = Math.max(mostQueued[0], queue.size())))
                .then(Job.defer(() -> produce(queue, i + 1, items, mostQueued)));
    }

    private static Job<Void> consume(BoundedMailbox<Integer> queue, int left, Duration work, List<Integer> into) {
        if (left == 0) {
            return Job.unit();
        }
        return queue.take().flatMap(item -> Job.sleep(work).then(Job.run(() -> into.add(item))))
                .then(Job.defer(() -> consume(queue, left - 1, work, into)));
    }

    /** Offers {@code item} for at most {@code patience}: true if it went in, false if the queue stayed full. */
    static <A> Job<Boolean> offer(BoundedMailbox<A> queue, A item, Duration patience) {
        return Alt.choose(
                queue.send(item).wrap(sent -> true),
                Alt.after(patience).wrap(timedOut -> false));
    }

    /**
     * A queue of one place holding {@code "first"}: offering {@code "second"} for 10 ms times out and adds
     * nothing; after one take, the offer succeeds. Gives {@code [false, first, true, second]}.
     */
    static Job<List<Object>> offerToAFullQueue() {
        BoundedMailbox<String> queue = new BoundedMailbox<>(1, "one place");
        return queue.send("first")
                .then(offer(queue, "second", Duration.ofMillis(10)))
                .flatMap(late -> queue.take().flatMap(taken -> offer(queue, "second", Duration.ofMillis(10))
                        .flatMap(again -> queue.take().map(next -> List.<Object>of(late, taken, again, next)))));
    }

    /** Prints what each example gives. */
    static void demo(PrintStream out) {
        try (Scheduler scheduler = Scheduler.create(2)) {
            Pipeline p = scheduler.run(pipeline(20, 3, Duration.ofMillis(1)));
            out.println("pipeline(20, capacity 3) -> " + p.received() + ", at most " + p.mostQueued() + " queued");
            out.println("offerToAFullQueue()      -> " + scheduler.run(offerToAFullQueue()));
        }
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
