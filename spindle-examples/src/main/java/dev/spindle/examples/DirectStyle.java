package dev.spindle.examples;

import dev.spindle.Channel;
import dev.spindle.Direct;
import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import dev.spindle.sync.Mutex;
import dev.spindle.sync.WaitGroup;
import dev.spindle.test.Simulation;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Direct style: a job whose body is ordinary Java code with loops, {@code try}/{@code finally} and early
 * returns ({@link Job#direct}). Inside it, {@link Job#await()} runs any job and returns its value, and
 * suspends only this fiber while it waits. Tasks given to {@link Scheduler#execute} are direct bodies too
 * (marl's tasks), and the blocking forms of {@code dev.spindle.sync} suspend the fiber there instead of
 * blocking the thread. On an ordinary thread, {@code await()} blocks the thread while the job runs on
 * Spindle's common scheduler.
 */
public final class DirectStyle {
    private DirectStyle() {
    }

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    /**
     * A producer gives 1 to 10 over a channel, one every millisecond; the consumer, a plain loop, takes and
     * adds them, then joins the producer: 55, after 10 ms.
     */
    static Job<Integer> directSum() {
        Channel<Integer> numbers = new Channel<>("numbers");
        Job<Void> producer = Job.direct(() -> {
            for (int i = 1; i <= 10; i++) {
                Job.sleep(ms(1)).await();  // suspends this fiber only
                numbers.give(i).await();   // waits for the consumer's take
            }
            return null;
        });
        return Job.direct(() -> {
            Fiber<Void> producing = producer.start().await();  // a child fiber
            int sum = 0;
            for (int i = 0; i < 10; i++) {
                sum += numbers.take().await();
            }
            producing.join().await();
            return sum;
        });
    }

    /**
     * marl's tasks: {@code workers} tasks on {@code scheduler} each work 10 ms and count a wait group down;
     * one more task waits for the group and logs last. Logs to {@code log}; the caller closes the scheduler,
     * which waits for every task.
     */
    static void marlStyle(Scheduler scheduler, int workers, List<String> log) {
        WaitGroup working = new WaitGroup(workers, "workers");
        for (int i = 0; i < workers; i++) {
            int id = i;
            scheduler.execute(() -> {
                try {
                    Job.sleep(ms(10)).await();  // a task is a direct body: it may wait
                    log.add("worker " + id + " done");
                } finally {
                    working.done();
                }
            });
        }
        scheduler.execute(() -> {
            working.await().await();  // suspends this task's fiber, not a worker thread
            log.add("all " + workers + " workers done");
        });
    }

    /**
     * {@code count} deposits of {@code amount}, each written as code for threads: {@code lockBlocking},
     * then {@code unlock} in a {@code finally}. In a direct body the wait for the lock suspends the fiber,
     * so this works on a single worker too. Each deposit holds the lock for 1 ms; gives the balance.
     */
    static Job<Integer> deposits(int count, int amount) {
        Mutex mutex = new Mutex("ledger");
        int[] balance = {0};  // guarded by mutex
        Job<Void> deposit = Job.direct(() -> {
            mutex.lockBlocking();  // in a direct body: suspends this fiber, not the worker
            try {
                int before = balance[0];
                Job.sleep(ms(1)).await();  // a slow write: other deposits wait for the lock meanwhile
                balance[0] = before + amount;
            } finally {
                mutex.unlock();
            }
            return null;
        });
        return Job.all(Collections.nCopies(count, deposit)).map(done -> balance[0]);
    }

    /** Awaits a job from an ordinary thread (not a fiber): the thread blocks; gives 42. */
    static int awaitOnAThread() {
        return HelloJobs.answer().await();  // blocks this thread; the job runs on Spindle's common scheduler
    }

    /**
     * A direct fiber waits an hour and is cancelled after 10 ms: the cancellation reaches it in its await,
     * its {@code finally} block runs, and only then does {@code cancel} return. Gives the fiber's outcome,
     * {@code Cancelled}; {@code log} ends up as {@code [finally ran, cancel returned]}.
     */
    static Job<Outcome<String>> cancelWhileWaiting(List<String> log) {
        Job<String> sleeper = Job.direct(() -> {
            try {
                Job.sleep(Duration.ofHours(1)).await();  // throws CancellationException when cancelled
                return "woke up";
            } finally {
                log.add("finally ran");
            }
        });
        return Job.direct(() -> {
            Fiber<String> fiber = sleeper.start().await();
            Job.sleep(ms(10)).await();
            fiber.cancel().await();  // returns once the fiber has finished, its finally block included
            log.add("cancel returned");
            return fiber.outcome().await();
        });
    }

    /** How this JVM runs direct bodies, in words. */
    static String backendInUse() {
        return switch (Direct.backend()) {
            case CONTINUATION -> "continuations on the scheduler's workers";
            case VIRTUAL_THREAD -> "a virtual thread per body (the JVM does not export jdk.internal.vm)";
        };
    }

    /** Runs {@link #directSum()} in the simulator (continuation backend only); gives the sum and the time. */
    static String directSumInVirtualTime() {
        try (Simulation sim = Simulation.create()) {
            int sum = sim.run(directSum());  // deterministic: one thread, virtual time
            return sum + " after " + sim.elapsed();
        }
    }

    /** Prints what each example gives. */
    static void demo(PrintStream out) {
        out.println("Direct.backend()            -> " + Direct.backend() + ": " + backendInUse());
        try (Scheduler scheduler = Scheduler.create(2)) {
            out.println("directSum()                 -> " + scheduler.run(directSum()));
            out.println("deposits(10, 5)             -> " + scheduler.run(deposits(10, 5)));
            List<String> log = new CopyOnWriteArrayList<>();
            out.println("cancelWhileWaiting()        -> " + scheduler.run(cancelWhileWaiting(log)) + ", log " + log);
        }
        List<String> log = new CopyOnWriteArrayList<>();
        try (Scheduler scheduler = Scheduler.create(2)) {
            marlStyle(scheduler, 3, log);
        }
        out.println("marlStyle(3)                -> " + log);
        out.println("awaitOnAThread()            -> " + awaitOnAThread());
        out.println("directSum() in simulation   -> " + (Direct.backend() == Direct.Backend.CONTINUATION
                ? directSumInVirtualTime()
                : "skipped: the simulator runs direct bodies only on the continuation backend"));
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
