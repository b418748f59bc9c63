package dev.spindle.examples;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.io.PrintStream;
import java.util.concurrent.CompletableFuture;

/**
 * Working with code outside Spindle. {@link Job#fromFuture} waits for a {@link CompletableFuture} (or any
 * {@code CompletionStage}) and {@link Job#blocking} runs blocking code on a virtual thread; in both cases the
 * fiber waits without holding a worker, and cancelling it cancels the future or interrupts the thread.
 * The other way round, {@link Scheduler#submit} gives a job's result as a {@code CompletableFuture}.
 */
public final class Interop {
    private Interop() {
    }

    /** Waits for a future computed elsewhere; the supplier is asked for a new future on each run. */
    static Job<String> fromFuture() {
        return Job.fromFuture(() -> {
            Thread fiberThread = Thread.currentThread();
            return CompletableFuture.supplyAsync(
                    () -> "computed on another thread: " + (Thread.currentThread() != fiberThread));
        });
    }

    /** Runs a blocking call (here a sleep standing for JDBC or file I/O) on a virtual thread. */
    static Job<String> blockingCall() {
        return Job.blocking(() -> {
            Thread.sleep(20);
            return "blocking call ran on a virtual thread: " + Thread.currentThread().isVirtual();
        });
    }

    /** Prints what each bridge gives. */
    static void demo(PrintStream out) {
        try (Scheduler scheduler = Scheduler.create()) {
            out.println("fromFuture   -> " + scheduler.run(fromFuture()));
            out.println("blocking     -> " + scheduler.run(blockingCall()));
            out.println("submit       -> " + scheduler.submit(HelloJobs.answer()).thenApply(v -> v + 1).join()
                    + " (a CompletableFuture of answer(), plus one)");
        }
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
