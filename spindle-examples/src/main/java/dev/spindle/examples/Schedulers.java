package dev.spindle.examples;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.sync.WaitGroup;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Schedulers: where fibers run. {@link Scheduler#create()} has one worker thread per processor,
 * {@link Scheduler#create(int)} as many as asked, and {@link Scheduler#singleThreaded()} none: the thread
 * that calls {@code run} does the work while it waits. {@code run} blocks for a value, {@code submit} gives
 * a {@link CompletableFuture}, {@code execute} fires and forgets; {@code close} waits for every fiber and
 * {@code shutdownNow} cancels them first; {@code shutdown} stops a scheduler from one of its own fibers.
 */
public final class Schedulers {
    private Schedulers() {
    }

    /** The name of the thread that runs it. */
    static Job<String> threadName() {
        return Job.of(() -> Thread.currentThread().getName());
    }

    /** Runs {@link #threadName()} on a single-threaded scheduler: the caller's own thread does the work. */
    static String singleThreadedRunsOnCaller() {
        try (Scheduler scheduler = Scheduler.singleThreaded()) {
            return scheduler.run(threadName());
        }
    }

    /** {@code submit} gives a future that composes like any other. */
    static String submitAndCompose() {
        try (Scheduler scheduler = Scheduler.create(2)) {
            CompletableFuture<Integer> answer = scheduler.submit(HelloJobs.answer());
            return answer.thenApply(v -> "the answer is " + v).join();
        }
    }

    /** Fires {@code tasks} plain tasks with {@code execute}; {@code close} returns once all have run. */
    static int executeThenClose(int tasks) {
        AtomicInteger done = new AtomicInteger();
        try (Scheduler scheduler = Scheduler.create(2)) {
            for (int i = 0; i < tasks; i++) {
                scheduler.execute(done::incrementAndGet);
            }
        } // close() waits for every fiber started on the scheduler
        return done.get();
    }

    /**
     * marl's bind: the thread that owns a single-threaded scheduler executes {@code tasks} tasks and waits
     * for them with a blocking wait. Bound, the wait runs the tasks on this thread (unbound, nothing would
     * run them and it would wait forever). Gives the number of tasks that had run when the wait returned.
     */
    @SuppressWarnings("try") // the binding is held for the block, not referenced in it
    static int bindAndWait(int tasks) throws InterruptedException {
        AtomicInteger ran = new AtomicInteger();
        try (Scheduler scheduler = Scheduler.singleThreaded(); Scheduler.Binding bound = scheduler.bind()) {
            WaitGroup finished = new WaitGroup(tasks);
            for (int i = 0; i < tasks; i++) {
                scheduler.execute(() -> {
                    ran.incrementAndGet();
                    finished.done();
                });
            }
            finished.awaitBlocking(); // runs the scheduler's queued tasks while it waits
            return ran.get();
        }
    }

    /** {@code shutdownNow} cancels a fiber that would sleep for a day; gives whether its future says so. */
    static boolean shutdownNowCancels() {
        Scheduler scheduler = Scheduler.create(2);
        CompletableFuture<Void> sleeper = scheduler.submit(Job.sleep(Duration.ofDays(1)));
        scheduler.shutdownNow();
        return sleeper.isCancelled();
    }

    /**
     * A fiber stops its own scheduler: {@code shutdown()} refuses new jobs from outside and returns at once,
     * and the scheduler terminates when its last fiber has finished. Gives what the fiber saw.
     */
    static String shutdownFromInside() {
        Scheduler scheduler = Scheduler.create(2);
        String seen = scheduler.run(Job.of(() -> {
            scheduler.shutdown();  // close() here would wait for this very fiber: it throws instead
            return "closed = " + scheduler.isClosed();
        }));
        scheduler.close();  // from outside: waits until the scheduler has terminated
        return seen + ", terminated = " + scheduler.isTerminated();
    }

    /** A closed scheduler refuses new jobs at once; gives the message it refuses with. */
    static String closedRefuses() {
        Scheduler scheduler = Scheduler.builder().name("example").workers(1).build();
        scheduler.close();
        try {
            scheduler.run(Job.unit());
            return "accepted?!";
        } catch (IllegalStateException expected) {
            return expected.getMessage();
        }
    }

    /** Prints what each kind of scheduler and each entry point does. */
    static void demo(PrintStream out) {
        try (Scheduler scheduler = Scheduler.create()) {
            out.println("create():        " + scheduler.workerCount() + " workers, job ran on "
                    + scheduler.run(threadName()));
        }
        try (Scheduler scheduler = Scheduler.create(2)) {
            out.println("create(2):       " + scheduler.workerCount() + " workers, job ran on "
                    + scheduler.run(threadName()));
        }
        out.println("singleThreaded(): job ran on " + singleThreadedRunsOnCaller() + ", the caller's thread "
                + Thread.currentThread().getName());
        out.println("submit:          " + submitAndCompose());
        out.println("execute x 1000:  " + executeThenClose(1000) + " tasks done when close() returned");
        try {
            out.println("bind + wait:     " + bindAndWait(10) + " of 10 tasks done when the wait returned");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        out.println("shutdownNow:     day-long sleeper cancelled = " + shutdownNowCancels());
        out.println("shutdown inside: " + shutdownFromInside());
        out.println("after close:     " + closedRefuses());
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
