package dev.spindle.examples;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Failures. An exception thrown inside a job fails that job and nothing else; {@code run} rethrows it
 * (unchecked as is, checked wrapped in {@link CompletionException}), {@code attempt} and {@code recover}
 * turn it into a value, and a failure nobody can observe (a fire-and-forget fiber) goes to the
 * scheduler's uncaught handler.
 */
public final class Failures {
    private Failures() {
    }

    /** The "port" setting of {@code config}; fails with a checked {@link IOException} when it is missing. */
    static Job<Integer> readPort(Map<String, String> config) {
        return Job.of(() -> {
            String port = config.get("port");
            if (port == null) {
                throw new IOException("no 'port' in the configuration");
            }
            return Integer.parseInt(port);
        });
    }

    /** What {@code run} throws for {@code job}, as "ExceptionType: message". */
    static String whatRunThrows(Scheduler scheduler, Job<?> job) {
        try {
            return "returned " + scheduler.run(job);
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /**
     * Runs two failures nobody can observe on a scheduler with an uncaught handler: a fire-and-forget fiber
     * that fails, and a finalizer that fails while its job is being cancelled. Gives what the handler got.
     */
    static List<String> lostFailures() {
        List<String> received = new CopyOnWriteArrayList<>();
        try (Scheduler scheduler = Scheduler.builder()
                .name("failures")
                .uncaughtHandler(error -> received.add(error.getMessage()))
                .build()) {
            scheduler.run(readPort(Map.of()).forget());
            scheduler.runOutcome(Job.<Void>cancelled().ensure(Job.run(() -> {
                throw new IllegalStateException("a finalizer failed during cancellation");
            })));
        } // close() waits for every fiber, so the handler has seen both failures
        return received;
    }

    /** Prints how each failure surfaces. */
    static void demo(PrintStream out) {
        try (Scheduler scheduler = Scheduler.create()) {
            out.println("run, checked failure:    " + whatRunThrows(scheduler, readPort(Map.of())));
            out.println("run, unchecked failure:  " + whatRunThrows(scheduler, readPort(Map.of("port", "http"))));
            out.println("attempt():               " + scheduler.run(readPort(Map.of()).attempt()));
            out.println("recover(e -> 8080):      " + scheduler.run(readPort(Map.of()).recover(e -> 8080)));
        }
        out.println("uncaught handler got:    " + lostFailures());
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
