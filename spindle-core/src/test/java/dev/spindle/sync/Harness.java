package dev.spindle.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.test.fixture.Patience;
import dev.spindle.test.fixture.SchedulerFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.IntSupplier;

/**
 * Runs a scenario of {@link Step}s with one kind of {@link Actors} and ends it with marl's leak check: the
 * scheduler fixture's ({@link SchedulerFixture#close()}: the scheduler closes, no fiber or timer is left,
 * its threads are gone, no failure reached the uncaught handler), then every watched primitive has no
 * waiter left, no timer of this package is pending, and every spawned thread ended.
 *
 * <pre>{@code
 * try (Harness h = new Harness(actors)) {
 *     WaitGroup wg = h.watch(new WaitGroup(1), WaitGroup::waiterCount);
 *     h.run(seq(h.spawn(act(wg::done)), waitOn(wg.await(), wg::awaitBlocking)));
 * }
 * }</pre>
 */
final class Harness implements AutoCloseable {
    final Actors mode;
    /** The scheduler of the fiber kinds; null for threads. */
    final Scheduler scheduler;
    private final SchedulerFixture fixture;
    private final Queue<Fiber<Void>> fibers = new ConcurrentLinkedQueue<>();
    private final Queue<Thread> threads = new ConcurrentLinkedQueue<>();
    private final Queue<Throwable> threadFailures = new ConcurrentLinkedQueue<>();
    private final List<Watched> watched = new ArrayList<>();
    private final int timersBefore = Waits.liveTimers();
    private boolean failed;

    private record Watched(Object primitive, IntSupplier waiters) {
    }

    Harness(Actors mode) {
        this.mode = mode;
        this.fixture = mode.fibers() ? mode.kind().open() : null;
        this.scheduler = fixture != null ? fixture.scheduler() : null;
    }

    /** Registers {@code primitive} for the leak check (its waiter count must be 0 at the end). */
    <P> P watch(P primitive, java.util.function.ToIntFunction<P> waiterCount) {
        watched.add(new Watched(primitive, () -> waiterCount.applyAsInt(primitive)));
        return primitive;
    }

    /** A step that starts {@code actor} concurrently (a child fiber, or a new thread); the run joins it. */
    Step spawn(Step actor) {
        return new Step() {
            @Override
            public Job<Void> job() {
                return actor.job().start().map(f -> {
                    fibers.add(f);
                    return null;
                });
            }

            @Override
            public void block() {
                Thread t = new Thread(() -> {
                    try {
                        actor.block();
                    } catch (Throwable e) {
                        threadFailures.add(e);
                    }
                }, "sync-actor-" + threads.size());
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }

            @Override
            public void direct() {
                fibers.add(Job.direct(() -> {
                    actor.direct();
                    return (Void) null;
                }).start().await());
            }
        };
    }

    /** Runs {@code main} and then joins every actor spawned meanwhile; rethrows the first failure. */
    void run(Step main) {
        try {
            if (mode.direct()) {
                scheduler.run(Job.direct(() -> {
                    main.direct();
                    return null;
                }).then(Job.defer(this::joinSpawned)));
            } else if (mode.fibers()) {
                scheduler.run(main.job().then(Job.defer(this::joinSpawned)));
            } else {
                main.block();
                joinThreads();
            }
        } catch (Throwable e) {
            failed = true;
            Harness.<RuntimeException>sneakyThrow(e);
        }
    }

    /** Runs {@code job} on this harness's scheduler (fiber modes only) and gives its value. */
    <A> A runJob(Job<A> job) {
        try {
            return scheduler.run(job);
        } catch (Throwable e) {
            failed = true;
            throw e;
        }
    }

    private Job<Void> joinSpawned() {
        Fiber<Void> f = fibers.poll();
        return f == null ? Job.unit() : f.join().then(Job.defer(this::joinSpawned));
    }

    private void joinThreads() throws Exception {
        long deadline = System.nanoTime() + Patience.LONG.toNanos();
        Thread t;
        while ((t = threads.poll()) != null) {
            t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            if (t.isAlive()) {
                fail("thread %s still running after %s", t.getName(), Patience.LONG);
            }
        }
        Throwable first = threadFailures.poll();
        if (first != null) {
            for (Throwable more; (more = threadFailures.poll()) != null; ) {
                first.addSuppressed(more);
            }
            Harness.<Exception>sneakyThrow(first);
        }
    }

    /** The leak check. */
    @Override
    public void close() {
        if (fixture != null) {
            if (failed) {
                // cancel what is still running (spawned fibers may wait for an actor that failed), and
                // don't mask the test's failure with its consequences
                for (Fiber<Void> f; (f = fibers.poll()) != null; ) {
                    scheduler.submit(f.cancel());
                }
                fixture.abort();
                return;
            }
            fixture.close();
        }
        if (failed) {
            return;
        }
        for (Watched w : watched) {
            assertThat(w.waiters().getAsInt()).as("waiters left in %s", w.primitive()).isZero();
        }
        assertThat(Waits.liveTimers() - timersBefore).as("timers of dev.spindle.sync left pending").isZero();
    }

    @SuppressWarnings("unchecked")
    static <E extends Throwable> void sneakyThrow(Throwable e) throws E {
        throw (E) e;
    }

    @Override
    public String toString() {
        return mode.toString();
    }
}
