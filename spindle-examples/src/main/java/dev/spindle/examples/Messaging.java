package dev.spindle.examples;

import static dev.spindle.examples.Combinators.slow;

import dev.spindle.Alt;
import dev.spindle.Channel;
import dev.spindle.IVar;
import dev.spindle.Job;
import dev.spindle.Mailbox;
import dev.spindle.Promise;
import dev.spindle.Scheduler;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Message passing between fibers. A {@link Channel} is synchronous: every {@code give} meets exactly one
 * {@code take}, and a fiber waiting on either holds no thread. {@link Alt#choose} waits on several
 * alternatives and commits to exactly one, for instance a take or a timeout ({@link Alt#after}); the
 * alternatives that lose have no effect. {@link Alt#withNack} tells a server that its client gave up.
 * An {@link IVar} is filled once and read many times, a {@link Mailbox} is an unbounded queue whose
 * {@code send} never waits, and a {@link Promise} (also {@link Job#memo()}) runs a job at most once and
 * shares its outcome with every reader.
 */
public final class Messaging {
    private Messaging() {
    }

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    /** A producer fiber gives two numbers over a channel; the consumer takes both and adds them: 42. */
    static Job<Integer> channelSum() {
        Channel<Integer> numbers = new Channel<>("numbers");
        Job<Void> producer = numbers.give(20).then(numbers.give(22));  // each give waits for a taker
        Job<Integer> consumer = numbers.take().flatMap(a -> numbers.take().map(b -> a + b));
        return producer.start().then(consumer);
    }

    /** Takes a message from {@code inbox}, or gives up after {@code limit}. */
    static Job<String> takeOrTimeout(Channel<String> inbox, Duration limit) {
        return Alt.choose(
                inbox.take().wrap(message -> "got " + message),
                Alt.after(limit).wrap(timedOut -> "timed out"));
    }

    /**
     * One message is given, then two takes with a timeout each: the first gets the message (and its hour-long
     * timer is removed at once), the second times out. Gives {@code [got hello, timed out]}.
     */
    static Job<List<String>> takeTwice() {
        Channel<String> inbox = new Channel<>("inbox");
        return inbox.give("hello").start()
                .then(takeOrTimeout(inbox, Duration.ofHours(1)))
                .flatMap(first -> takeOrTimeout(inbox, ms(20)).map(second -> List.of(first, second)));
    }

    /** A request to {@link #serveOne}: a query, the channel for the answer, and the client's nack. */
    record Request(String query, Channel<String> reply, Alt<Void> nack) {
    }

    /** Asks {@code server}: an alternative whose nack becomes ready if the client commits to something else. */
    static Alt<String> ask(Channel<Request> server, String query) {
        return Alt.withNack(nack -> {
            Channel<String> reply = new Channel<>("reply");
            return server.send(new Request(query, reply, nack)).map(sent -> reply.take());
        });
    }

    /** Serves one request after {@code work}: answers it, unless the client has given up by then. */
    static Job<String> serveOne(Channel<Request> server, Duration work) {
        return server.take().flatMap(request -> Job.sleep(work).then(Alt.choose(
                request.reply().give("answer to " + request.query()).wrap(v -> "answered"),
                request.nack().wrap(v -> "client gave up, answer dropped"))));
    }

    /**
     * A client asks with a {@code patience} limit while a server takes {@code work} to answer; gives what the
     * client got and what the server did, e.g. {@code timed out / client gave up, answer dropped}.
     */
    static Job<String> askWithPatience(Duration work, Duration patience) {
        Channel<Request> server = new Channel<>("server");
        return serveOne(server, work).start().flatMap(serving ->
                Alt.choose(ask(server, "q"), Alt.after(patience).wrap(v -> "timed out"))
                        .flatMap(client -> serving.join().map(served -> client + " / " + served)));
    }

    /**
     * Two readers wait on an empty IVar; one fill wakes both, and a second fill is refused. Gives
     * the two greetings ({@code hello, ada}) and {@code refilled: false}.
     */
    static Job<List<String>> fillOnce() {
        IVar<String> user = new IVar<>("user");
        Job<String> greeter = user.read().map(name -> "hello, " + name);  // waits until the fill
        return greeter.start().flatMap(first -> greeter.start().flatMap(second ->
                user.fill("ada")
                        .then(user.tryFill("bob"))  // false: an IVar is filled once (fill would fail)
                        .flatMap(refilled -> first.join().flatMap(a -> second.join().map(b ->
                                List.of(a, b, "refilled: " + refilled))))));
    }

    /** An actor: adds up the numbers it receives until a 0 arrives, then gives the total. */
    static Job<Integer> adder(Mailbox<Integer> inbox, int total) {
        return inbox.take().flatMap(n -> n == 0 ? Job.result(total) : adder(inbox, total + n));
    }

    /** Starts the adder, sends it 1, 2, 3 and the closing 0, then joins it: 6. */
    static Job<Integer> mailboxSum() {
        Mailbox<Integer> inbox = new Mailbox<>("adder");
        return adder(inbox, 0).start().flatMap(actor ->
                inbox.send(1).then(inbox.send(2)).then(inbox.send(3)).then(inbox.send(0))  // none waits
                        .then(actor.join()));
    }

    /** Three readers of one memoised load: the load runs once, and all three get its value. */
    static Job<List<String>> sharedLoad(AtomicInteger loads) {
        Promise<String> config = Job.defer(() -> slow("config #" + loads.incrementAndGet(), ms(20)))
                .memo();  // nothing runs yet: the first read starts the load
        return Job.all(List.of(config.read(), config.read(), config.read()));
    }

    /** Prints what each example gives. */
    static void demo(PrintStream out) {
        try (Scheduler scheduler = Scheduler.create(2)) {
            out.println("channelSum()                 -> " + scheduler.run(channelSum()));
            out.println("takeTwice()                  -> " + scheduler.run(takeTwice()));
            out.println("ask, server quick (patient)  -> "
                    + scheduler.run(askWithPatience(Duration.ZERO, Duration.ofHours(1))));
            out.println("ask, server slow (impatient) -> " + scheduler.run(askWithPatience(ms(50), ms(10))));
            out.println("fillOnce()                   -> " + scheduler.run(fillOnce()));
            out.println("mailboxSum()                 -> " + scheduler.run(mailboxSum()));
            AtomicInteger loads = new AtomicInteger();
            out.println("sharedLoad()                 -> " + scheduler.run(sharedLoad(loads)) + ", loads: "
                    + loads.get());
        }
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
