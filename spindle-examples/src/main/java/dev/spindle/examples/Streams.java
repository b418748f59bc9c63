package dev.spindle.examples;

import dev.spindle.Alt;
import dev.spindle.Channel;
import dev.spindle.ChannelSubscriber;
import dev.spindle.Flows;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.SubmissionPublisher;

/**
 * Streams with back-pressure: {@link Flows#publisher} offers a Spindle source to any
 * {@link java.util.concurrent.Flow} subscriber and takes elements only on demand; {@link Flows#subscriber}
 * feeds a Flow publisher's elements into a {@link Channel}, asking for the next only once one was taken.
 */
public final class Streams {
    private Streams() {
    }

    /** Lines sent to a channel, published: the subscriber (the JDK's consumer) sees them in order. */
    static List<String> channelAsPublisher(Scheduler scheduler) throws Exception {
        Channel<String> lines = new Channel<>("lines");
        Job<Optional<String>> next = lines.take().map(line -> line.equals("EOF") ? Optional.empty() : Optional.of(line));
        Flow.Publisher<String> publisher = Flows.publisher(scheduler, next);
        List<String> seen = new ArrayList<>();
        CompletableFuture<Void> consumed = new CompletableFuture<>();
        publisher.subscribe(new Flow.Subscriber<>() {
            private Flow.Subscription subscription;

            @Override
            public void onSubscribe(Flow.Subscription s) {
                subscription = s;
                s.request(1);                                   // one at a time: back-pressure
            }

            @Override
            public void onNext(String line) {
                seen.add(line);
                subscription.request(1);
            }

            @Override
            public void onError(Throwable e) {
                consumed.completeExceptionally(e);
            }

            @Override
            public void onComplete() {
                consumed.complete(null);
            }
        });
        scheduler.run(lines.send("alpha").then(lines.send("beta")).then(lines.send("EOF"))
                .then(Job.fromFuture(() -> consumed)));
        return seen;
    }

    /** A JDK publisher's items taken from a channel by a fiber, until the stream's end. */
    static int sumFromAPublisher(Scheduler scheduler) {
        Channel<Integer> numbers = new Channel<>("numbers");
        ChannelSubscriber<Integer> in = Flows.subscriber(scheduler, numbers);
        try (SubmissionPublisher<Integer> jdk = new SubmissionPublisher<>()) {
            jdk.subscribe(in);
            for (int i = 1; i <= 10; i++) {
                jdk.submit(i);
            }
        }                                                       // close(): onComplete after the items
        return scheduler.run(sum(numbers, in, 0));
    }

    private static Job<Integer> sum(Channel<Integer> numbers, ChannelSubscriber<Integer> in, int acc) {
        return Alt.<Optional<Integer>>choose(numbers.take().wrap(Optional::of), in.done().wrap(v -> Optional.empty()))
                .flatMap(x -> x.isPresent() ? sum(numbers, in, acc + x.get()) : Job.result(acc));
    }

    /** Prints what each example gives. */
    static void demo(PrintStream out) throws Exception {
        try (Scheduler scheduler = Scheduler.create()) {
            out.println("publisher    -> " + channelAsPublisher(scheduler));
            out.println("subscriber   -> sum " + sumFromAPublisher(scheduler));
        }
    }

    /** Runs the demo. */
    public static void main(String[] args) throws Exception {
        demo(System.out);
    }
}
