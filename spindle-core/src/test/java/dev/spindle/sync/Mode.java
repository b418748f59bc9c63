package dev.spindle.sync;

import dev.spindle.Scheduler;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The ways a scenario runs (marl's worker-count fixture plus plain threads): as fibers on a single-threaded
 * scheduler or on 1, 2, 4 or 8 worker threads, each step in its job form; as direct fibers on 2 workers,
 * each step as plain code whose waits are the blocking forms (marl's style); or on ordinary threads, each
 * step in its blocking form.
 */
enum Mode {
    SINGLE_THREADED(0),
    WORKERS_1(1),
    WORKERS_2(2),
    WORKERS_4(4),
    WORKERS_8(8),
    DIRECT_2(2),
    THREADS(-1);

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    /** Worker threads; 0 single-threaded; -1 no scheduler at all. */
    final int workers;

    Mode(int workers) {
        this.workers = workers;
    }

    /** Whether actors are direct fibers running the blocking forms. */
    boolean direct() {
        return this == DIRECT_2;
    }

    /** Whether actors are fibers (else ordinary threads). */
    boolean fibers() {
        return workers >= 0;
    }

    /** A fresh scheduler name; its worker threads are called {@code name-worker-i}. */
    String newSchedulerName() {
        return "sync-" + name().toLowerCase() + "-" + SEQUENCE.incrementAndGet();
    }

    /** A new scheduler for this mode; null for {@link #THREADS}. */
    Scheduler newScheduler(String name, Consumer<Throwable> uncaught) {
        if (!fibers()) {
            return null;
        }
        Scheduler.Builder b = Scheduler.builder().name(name).uncaughtHandler(uncaught);
        return workers == 0 ? b.singleThreaded().build() : b.workers(workers).build();
    }

    /** {@code n}, or fewer for plain threads (one platform thread per actor), at most {@code threadCap}. */
    int scale(int n, int threadCap) {
        return fibers() ? n : Math.min(n, threadCap);
    }
}
