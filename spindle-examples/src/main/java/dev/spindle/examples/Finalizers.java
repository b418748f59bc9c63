package dev.spindle.examples;

import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Finalizers and masking. {@link Job#ensure} runs a finalizer exactly once whether the job succeeds, fails
 * or is cancelled; {@link Job#bracket} releases what an acquire gave in the same way; {@link Job#onCancel}
 * runs a finalizer only on cancellation; {@link Job#uncancelable} defers a cancellation requested inside
 * the region until the region has ended.
 */
public final class Finalizers {
    private Finalizers() {
    }

    /**
     * Opens a (pretend) resource, runs {@code body}, and closes the resource however the body ends, even when
     * the fiber is cancelled just after the open, before the body starts.
     */
    static <A> Job<A> withResource(List<String> log, Job<A> body) {
        return Job.bracket(Job.run(() -> log.add("open")),
                opened -> body,
                opened -> Job.run(() -> log.add("close")));
    }

    /** Runs {@code body}; if it is cancelled, rolls back. Success and failure leave no trace. */
    static <A> Job<A> rollbackOnCancel(List<String> log, Job<A> body) {
        return body.onCancel(Job.run(() -> log.add("rolled back")));
    }

    /**
     * Cancellation requested inside an uncancelable region (here by the fiber itself; the same holds for a
     * {@code fiber.cancel()} from elsewhere) waits for the region to finish, then takes effect.
     */
    static Job<String> commitThenStop(List<String> log) {
        Job<Void> commit = Job.<Void>cancelled()             // cancellation requested here...
                .then(Job.sleep(Duration.ofMillis(10)))      // ...yet the region runs to its end
                .then(Job.run(() -> log.add("committed")));
        return Job.uncancelable(commit)
                .then(Job.run(() -> log.add("after the region")))  // never runs: cancelled by now
                .then(Job.result("done"));
    }

    /** Prints the outcome and the log of each finalizer scenario. */
    static void demo(PrintStream out) {
        try (Scheduler scheduler = Scheduler.create()) {
            show(out, scheduler, "withResource(succeeds)", log -> withResource(log, Job.result("ok")));
            show(out, scheduler, "withResource(fails)",
                    log -> withResource(log, Job.<String>failure(new IOException("disk full"))));
            show(out, scheduler, "withResource(cancelled)", log -> withResource(log, Job.<String>cancelled()));
            show(out, scheduler, "rollbackOnCancel(succeeds)", log -> rollbackOnCancel(log, Job.result("ok")));
            show(out, scheduler, "rollbackOnCancel(cancelled)",
                    log -> rollbackOnCancel(log, Job.<String>cancelled()));
            show(out, scheduler, "commitThenStop", Finalizers::commitThenStop);
        }
    }

    /** Runs the job {@code scenario} makes for a fresh log; prints its outcome and the log. */
    private static void show(PrintStream out, Scheduler scheduler, String name, Scenario scenario) {
        List<String> log = new CopyOnWriteArrayList<>();
        Outcome<String> outcome = scheduler.runOutcome(scenario.job(log));
        out.printf("%-28s -> %-45s log %s%n", name, outcome, log);
    }

    /** Makes a job that writes to a log. */
    @FunctionalInterface
    private interface Scenario {
        Job<String> job(List<String> log);
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
