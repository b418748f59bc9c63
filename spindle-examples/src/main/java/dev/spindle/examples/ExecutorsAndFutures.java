package dev.spindle.examples;

import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Handing Spindle to code that takes a {@link java.util.concurrent.Executor} or an {@link ExecutorService}:
 * a scheduler is an {@code Executor}, {@link Scheduler#asExecutorService()} is a view with the JDK's
 * semantics whose tasks run as fibers (and may wait on Spindle jobs), and {@link Fiber#toCompletableFuture()}
 * turns a fiber into a future.
 */
public final class ExecutorsAndFutures {
    private ExecutorsAndFutures() {
    }

    /** A library call that takes an Executor: {@code CompletableFuture.supplyAsync} on the scheduler. */
    static String supplyAsync(Scheduler scheduler) {
        return CompletableFuture.supplyAsync(() -> "supplied on a fiber", scheduler)
                .thenApply(String::toUpperCase)
                .join();
    }

    /** Tasks of an ExecutorService view that wait on Spindle jobs; invokeAll gives them in task order. */
    static List<String> invokeAll(Scheduler scheduler) throws InterruptedException, ExecutionException {
        ExecutorService executor = scheduler.asExecutorService();
        List<Callable<String>> tasks = List.of(
                () -> Job.sleep(Duration.ofMillis(20)).then(Job.result("slow")).await(),
                () -> "quick");
        List<String> results = new ArrayList<>();
        for (Future<String> f : executor.invokeAll(tasks)) {
            results.add(f.get());
        }
        executor.shutdown();                                 // stops the view, not the scheduler
        executor.awaitTermination(1, TimeUnit.MINUTES);
        return results;
    }

    /** A fiber as a CompletableFuture: the future completes when the fiber ends. */
    static int fiberAsFuture(Scheduler scheduler) {
        Fiber<Integer> fiber = scheduler.run(Job.of(() -> 6 * 7).startDetached());
        return fiber.toCompletableFuture().join();
    }

    /** Prints what each bridge gives. */
    static void demo(PrintStream out) throws InterruptedException, ExecutionException {
        try (Scheduler scheduler = Scheduler.create()) {
            out.println("supplyAsync  -> " + supplyAsync(scheduler));
            out.println("invokeAll    -> " + invokeAll(scheduler));
            out.println("fiber future -> " + fiberAsFuture(scheduler));
        }
    }

    /** Runs the demo. */
    public static void main(String[] args) throws Exception {
        demo(System.out);
    }
}
