package dev.spindle.sync;

import dev.spindle.Job;
import dev.spindle.test.fixture.Patience;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * One thing an actor of a scenario does, in three equivalent forms: a job (when actors are fibers), a
 * blocking call (when they are threads), and plain code inside a direct body (when actors are direct
 * fibers: waits use the blocking forms, which there suspend the fiber). Writing a scenario once in steps
 * runs the same test under every {@link Actors} kind, which is how the package promises identical semantics for
 * fibers, direct fibers and threads.
 */
interface Step {
    /** The form run by a fiber. */
    Job<Void> job();

    /** The form run by an ordinary thread. */
    void block() throws Exception;

    /**
     * The form run inside a direct body: by default the job form, awaited; waits override it with their
     * blocking form, which must suspend the direct fiber as the job form would.
     */
    default void direct() throws Exception {
        job().await();
    }

    /** Code that throws checked exceptions. */
    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    /** Code that gives a value and may throw. */
    @FunctionalInterface
    interface Call<A> {
        A call() throws Exception;
    }

    /** Plain code, the same in both forms (it must not wait). */
    static Step act(Action action) {
        return new Step() {
            @Override
            public Job<Void> job() {
                return Job.of(() -> {
                    action.run();
                    return null;
                });
            }

            @Override
            public void block() throws Exception {
                action.run();
            }
        };
    }

    /** A wait: {@code job} for fibers, {@code blocking} for threads. */
    static Step waitOn(Job<?> job, Action blocking) {
        return new Step() {
            @Override
            public Job<Void> job() {
                return job.then(Job.unit());
            }

            @Override
            public void block() throws Exception {
                blocking.run();
            }

            @Override
            public void direct() throws Exception {
                blocking.run();
            }
        };
    }

    /** A wait with a result, which {@code then} receives (in both forms). */
    static <A> Step waitFor(Job<A> job, Call<A> blocking, Consumer<? super A> then) {
        return new Step() {
            @Override
            public Job<Void> job() {
                return job.map(a -> {
                    then.accept(a);
                    return null;
                });
            }

            @Override
            public void block() throws Exception {
                then.accept(blocking.call());
            }

            @Override
            public void direct() throws Exception {
                then.accept(blocking.call());
            }
        };
    }

    /** Sleeps: {@link Job#sleep} or {@link Thread#sleep}. */
    static Step sleep(Duration d) {
        return waitOn(Job.sleep(d), () -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000));
    }

    /** Lets others run: {@link Job#yieldNow} or {@link Thread#yield}. */
    static Step yieldNow() {
        return waitOn(Job.yieldNow(), Thread::yield);
    }

    /**
     * Waits until {@code condition} holds: a fiber polls between short sleeps (so the fibers it waits for
     * can run, even on a single worker); a thread spins. Fails naming {@code what} after the hang guard.
     */
    static Step until(java.util.function.BooleanSupplier condition, String what) {
        return new Step() {
            @Override
            public Job<Void> job() {
                long deadline = System.nanoTime() + Patience.LONG.toNanos();
                return poll(deadline);
            }

            private Job<Void> poll(long deadline) {
                return Job.defer(() -> {
                    if (condition.getAsBoolean()) {
                        return Job.unit();
                    }
                    if (System.nanoTime() - deadline > 0) {
                        return Job.failure(new AssertionError("timed out after " + Patience.LONG + " waiting for " + what));
                    }
                    return Job.sleep(Duration.ofMillis(1)).then(poll(deadline));
                });
            }

            @Override
            public void block() {
                Patience.until(condition, what);
            }
        };
    }

    /** The step {@code factory} makes when the step is reached (not when the scenario is built). */
    static Step lazy(java.util.function.Supplier<Step> factory) {
        return repeat(1, i -> factory.get());
    }

    /** The steps one after another. */
    static Step seq(Step... steps) {
        return repeat(steps.length, i -> steps[i]);
    }

    /** {@code body(0)}, ..., {@code body(n - 1)} one after another (each built when reached). */
    static Step repeat(int n, IntFunction<Step> body) {
        return new Step() {
            @Override
            public Job<Void> job() {
                return from(0);
            }

            private Job<Void> from(int i) {
                return i == n ? Job.unit() : Job.defer(() -> body.apply(i).job()).then(Job.defer(() -> from(i + 1)));
            }

            @Override
            public void block() throws Exception {
                for (int i = 0; i < n; i++) {
                    body.apply(i).block();
                }
            }

            @Override
            public void direct() throws Exception {
                for (int i = 0; i < n; i++) {
                    body.apply(i).direct();
                }
            }
        };
    }
}
