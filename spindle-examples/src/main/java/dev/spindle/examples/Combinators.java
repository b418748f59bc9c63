package dev.spindle.examples;

import dev.spindle.Job;
import java.time.Duration;

/** Helpers the examples share: a stopwatch built from {@link Job#now()}, and a stand-in for slow work. */
final class Combinators {
    private Combinators() {
    }

    /** A value together with how long the job that produced it took. */
    record Timed<A>(A value, Duration elapsed) {
        /** The elapsed time in whole milliseconds, for printing. */
        long millis() {
            return elapsed.toMillis();
        }
    }

    /** Runs {@code job} and gives its value with the time it took, read from the scheduler's clock. */
    static <A> Job<Timed<A>> timed(Job<A> job) {
        return Job.now().flatMap(start -> job.flatMap(value -> Job.now().map(end ->
                new Timed<>(value, Duration.between(start, end)))));
    }

    /** {@code value} after {@code pause}: stands for work that waits (a timer, a reply, a request). */
    static <A> Job<A> slow(A value, Duration pause) {
        return Job.sleep(pause).then(Job.result(value));
    }
}
