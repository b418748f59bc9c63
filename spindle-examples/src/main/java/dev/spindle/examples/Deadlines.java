package dev.spindle.examples;

import dev.spindle.Alt;
import dev.spindle.Channel;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Absolute deadlines (marl's {@code wait_until}): {@link Job#sleepUntil} and {@link Alt#at} wait for an
 * instant on the scheduler's clock, so one deadline can bound several steps; an instant already past
 * completes at once.
 */
public final class Deadlines {
    private Deadlines() {
    }

    /**
     * Takes replies from {@code replies} until {@code deadline}: each take races the same deadline, so the
     * whole batch, not each reply, is bounded.
     */
    static Job<Integer> collectUntil(Channel<String> replies, Instant deadline, int count) {
        return Alt.<Boolean>choose(replies.take().wrap(r -> true), Alt.at(deadline).wrap(v -> false))
                .flatMap(got -> got ? collectUntil(replies, deadline, count + 1) : Job.result(count));
    }

    /** Three replies arrive 10 ms apart; the deadline 25 ms from now lets the first two in. */
    static int repliesBeforeTheDeadline(Scheduler scheduler) {
        Channel<String> replies = new Channel<>("replies");
        Job<Void> server = Job.sleep(Duration.ofMillis(10)).then(replies.send("a"))
                .then(Job.sleep(Duration.ofMillis(10))).then(replies.send("b"))
                .then(Job.sleep(Duration.ofMillis(100))).then(replies.send("c"));
        Job<Integer> job = Job.now().flatMap(t0 -> server.start().flatMap(f ->
                collectUntil(replies, t0.plusMillis(25), 0).flatMap(n -> f.cancel().then(Job.result(n)))));
        return scheduler.run(job);
    }

    /**
     * Sleeps until the next whole second of the scheduler's clock; gives how late it woke (never negative:
     * a deadline is never early; zero in virtual time).
     */
    static Duration lateForTheNextSecond(Scheduler scheduler) {
        return scheduler.run(Job.now().flatMap(t -> {
            Instant next = t.plusSeconds(1).truncatedTo(ChronoUnit.SECONDS);
            return Job.sleepUntil(next).then(Job.now()).map(woke -> Duration.between(next, woke));
        }));
    }

    /** Prints what each example gives. */
    static void demo(PrintStream out) {
        try (Scheduler scheduler = Scheduler.create()) {
            out.println("replies      -> " + repliesBeforeTheDeadline(scheduler) + " before the deadline");
            out.println("sleepUntil   -> woke " + lateForTheNextSecond(scheduler) + " after the next second");
        }
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
