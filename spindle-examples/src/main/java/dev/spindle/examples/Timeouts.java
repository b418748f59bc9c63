package dev.spindle.examples;

import static dev.spindle.examples.Combinators.slow;

import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;

/**
 * Sleep, timers and timeouts. {@link Job#sleep} waits without holding a thread, so ten thousand sleepers on
 * two workers finish in about one sleep. {@link Job#timeout} races a job with a sleep: when the sleep wins
 * the job is cancelled (its finalizers run, its timer is removed) and the result fails with
 * {@link TimeoutException}.
 */
public final class Timeouts {
    /** How long each of the many sleepers sleeps. */
    static final Duration PAUSE = Duration.ofMillis(100);

    private Timeouts() {
    }

    /** Starts {@code count} fibers that each sleep {@code pause}, waits for all; gives how many woke. */
    static Job<Integer> sleepers(int count, Duration pause) {
        Job<Integer> sleeper = Job.sleep(pause).then(Job.result(1));
        return Job.all(Collections.nCopies(count, sleeper)).map(List::size);
    }

    /** A lookup that answers after {@code delay}, limited to {@code limit}; logs when it is cancelled. */
    static Job<String> lookup(Duration delay, Duration limit, List<String> log) {
        return slow("found", delay)
                .onCancel(Job.run(() -> log.add("lookup cancelled")))
                .timeout(limit);
    }

    /** Prints how long things took. */
    static void demo(PrintStream out) {
        try (Scheduler scheduler = Scheduler.create(2)) {
            for (String run : List.of("first run (cold JVM)", "second run")) {
                Combinators.Timed<Integer> woke = scheduler.run(Combinators.timed(sleepers(10_000, PAUSE)));
                out.println(woke.value() + " fibers slept " + PAUSE.toMillis() + " ms each on 2 workers, " + run
                        + ": all done in " + woke.millis() + " ms");
            }
            List<String> log = new CopyOnWriteArrayList<>();
            out.println("lookup(10 ms, limit 1 s)   -> "
                    + scheduler.runOutcome(lookup(Duration.ofMillis(10), Duration.ofSeconds(1), log)));
            Combinators.Timed<Outcome<String>> late = scheduler.run(Combinators.timed(
                    lookup(Duration.ofHours(1), Duration.ofMillis(50), log).attempt()));
            out.println("lookup(1 h, limit 50 ms)   -> " + late.value() + " after " + late.millis() + " ms, log "
                    + log);
        }
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
