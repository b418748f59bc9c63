package dev.spindle.examples;

import static dev.spindle.examples.Combinators.slow;

import dev.spindle.Either;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Structured concurrency: {@link Job#all}, {@link Job#race} and {@link Job#any} run jobs as child fibers of
 * the current one and settle on one result. Whatever decides, the fibers that lost are cancelled, and
 * their finalizers have finished before the combinator returns.
 */
public final class Parallel {
    private Parallel() {
    }

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    /** A job that fails with {@code error} after {@code delay}. */
    static <A> Job<A> failingAfter(Duration delay, Exception error) {
        return Job.sleep(delay).then(Job.failure(error));
    }

    /** Three quotes fetched at once: their values in input order, in the time of the slowest. */
    static Job<List<Integer>> quotes() {
        return Job.all(List.of(slow(101, ms(30)), slow(99, ms(50)), slow(100, ms(10))));
    }

    /** {@code all} fails fast: the first failure cancels the other quotes and is the result. */
    static Job<List<Integer>> quotesWithOneBroken(List<String> log) {
        return Job.all(List.of(
                slow(101, ms(30)),
                Parallel.<Integer>failingAfter(ms(20), new IOException("quote service down")),
                slow(100, Duration.ofHours(1)).onCancel(Job.run(() -> log.add("hour-long quote cancelled")))));
    }

    /** Two mirrors race: the first answer wins, and the mirror that hangs is cancelled. */
    static Job<Either<String, String>> fastestMirror(List<String> log) {
        Job<String> primary = slow("primary", Duration.ofHours(1))
                .onCancel(Job.run(() -> log.add("primary cancelled")));
        Job<String> backup = slow("backup", ms(10));
        return Job.race(primary, backup);
    }

    /** Three replicas are asked at once: the first success wins; a failure counts only if all fail. */
    static Job<String> firstReplica() {
        return Job.any(List.of(
                Parallel.<String>failingAfter(ms(5), new IOException("replica 1 is down")),
                slow("replica 2", ms(20)),
                slow("replica 3", Duration.ofHours(1))));
    }

    /** Prints what each combinator gives. */
    static void demo(PrintStream out) {
        try (Scheduler scheduler = Scheduler.create()) {
            Combinators.Timed<List<Integer>> all = scheduler.run(Combinators.timed(quotes()));
            out.println("all(30 ms, 50 ms, 10 ms)  -> " + all.value() + " in " + all.millis() + " ms");
            List<String> log = new CopyOnWriteArrayList<>();
            out.println("all with one failing      -> " + scheduler.runOutcome(quotesWithOneBroken(log))
                    + ", log " + log);
            log.clear();
            out.println("race(1 h, 10 ms)          -> " + scheduler.run(fastestMirror(log)) + ", log " + log);
            out.println("any(fails, 20 ms, 1 h)    -> " + scheduler.run(firstReplica()));
        }
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
