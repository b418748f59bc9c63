package dev.spindle.examples;

import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Jobs and their combinators. A {@link Job} is a lazy description of a computation that may wait: building
 * one runs nothing, running it twice runs it twice. {@code map}, {@code flatMap} and {@code then} sequence
 * jobs; {@code recover} and {@code attempt} deal with failures; a loop written as recursion through
 * {@code flatMap} runs a million steps in bounded stack.
 */
public final class HelloJobs {
    private HelloJobs() {
    }

    /** 40, then a 10 ms sleep that holds no thread, then 42. */
    static Job<Integer> answer() {
        return Job.of(() -> 40)
                .flatMap(x -> Job.sleep(Duration.ofMillis(10)).then(Job.result(x + 2)));
    }

    /** Runs {@link #answer()} on a scheduler with one worker thread per processor; blocks until it ends. */
    static int runAnswer() {
        try (Scheduler scheduler = Scheduler.create()) {
            return scheduler.run(answer());
        }
    }

    /** Counts how often it runs: the job is a recipe, each run follows it again. */
    static Job<Integer> countRuns(AtomicInteger runs) {
        return Job.of(runs::incrementAndGet);
    }

    /** The number in {@code text}, or {@code fallback}: a failure turned into a value. */
    static Job<Integer> parseOr(String text, int fallback) {
        return Job.of(() -> Integer.parseInt(text)).recover(error -> fallback);
    }

    /** The number in {@code text} as an {@link Outcome}: a failure as a value to inspect. */
    static Job<Outcome<Integer>> tryParse(String text) {
        return Job.of(() -> Integer.parseInt(text)).attempt();
    }

    /** 1 + 2 + ... + n, one {@code flatMap} step per number: recursion through jobs does not grow the stack. */
    static Job<Long> sumTo(long n) {
        return sumFrom(1, n, 0);
    }

    private static Job<Long> sumFrom(long i, long n, long total) {
        return i > n ? Job.result(total) : Job.result(total + i).flatMap(next -> sumFrom(i + 1, n, next));
    }

    /** Prints what each job gives. */
    static void demo(PrintStream out) {
        out.println("runAnswer()              -> " + runAnswer());
        try (Scheduler scheduler = Scheduler.create()) {
            AtomicInteger runs = new AtomicInteger();
            Job<Integer> counter = countRuns(runs);
            out.println("built a job, runs so far -> " + runs.get());
            scheduler.run(counter);
            scheduler.run(counter);
            out.println("ran it twice, runs       -> " + runs.get());
            out.println("parseOr(\"12\", -1)        -> " + scheduler.run(parseOr("12", -1)));
            out.println("parseOr(\"twelve\", -1)    -> " + scheduler.run(parseOr("twelve", -1)));
            out.println("tryParse(\"twelve\")       -> " + scheduler.run(tryParse("twelve")));
            out.println("sumTo(1_000_000)         -> " + scheduler.run(sumTo(1_000_000)));
        }
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
