package dev.spindle;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.function.ThrowingConsumer;

/**
 * One way of running a {@link Scheduler} under test (marl's {0, 1, 2, 4, 8} fixture): single-threaded
 * ({@code workers == 0}) or a number of worker threads. {@link #use} wraps a test body with the leak check
 * every scheduler test ends with.
 *
 * @param workers worker threads, 0 for {@link Scheduler#singleThreaded()}
 */
record SchedulerKind(int workers) {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    /** The single-threaded scheduler: callers of run and close drive its only worker. */
    static final SchedulerKind SINGLE_THREADED = new SchedulerKind(0);

    /** A scheduler with {@code n} worker threads. */
    static SchedulerKind threads(int n) {
        return new SchedulerKind(n);
    }

    boolean isSingleThreaded() {
        return workers == 0;
    }

    /** A new scheduler of this kind, named after it (its threads are "name-worker-i"). */
    Scheduler create(Consumer<Throwable> uncaught) {
        Scheduler.Builder b = Scheduler.builder()
                .name("test-" + this + "-" + SEQUENCE.incrementAndGet())
                .uncaughtHandler(uncaught);
        return isSingleThreaded() ? b.singleThreaded().build() : b.workers(workers).build();
    }

    /**
     * Runs {@code body} with a new scheduler of this kind, then closes it and checks that it is quiescent
     * and that no failure reached its uncaught handler.
     */
    void use(ThrowingConsumer<Scheduler> body) {
        UncaughtRecorder uncaught = new UncaughtRecorder();
        use(uncaught, body);
        uncaught.assertNone();
    }

    /**
     * Runs {@code body} with a new scheduler of this kind whose uncaught failures go to {@code uncaught},
     * then closes it and checks that it is quiescent. The caller checks {@code uncaught}.
     */
    void use(UncaughtRecorder uncaught, ThrowingConsumer<Scheduler> body) {
        Scheduler s = create(uncaught);
        try {
            body.accept(s);
        } catch (Throwable e) {
            s.shutdownNow(); // don't leave its threads behind; the test has failed anyway
            Schedulers.sneakyThrow(e);
        }
        Schedulers.closeAndCheck(s);
    }

    /**
     * Waits until {@code condition} holds while making sure the scheduler makes progress: a single-threaded
     * scheduler only runs work while some thread drives it, so this drives it in short slices.
     */
    void awaitDriving(Scheduler s, BooleanSupplier condition, String what) {
        Job<Void> slice = Job.sleep(Duration.ofMillis(1));
        long deadline = System.nanoTime() + Await.LONG.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + Await.LONG + " waiting for " + what + " on " + s);
            }
            s.run(slice);
        }
    }

    @Override
    public String toString() {
        return isSingleThreaded() ? "single-threaded" : workers + (workers == 1 ? " worker" : " workers");
    }
}
