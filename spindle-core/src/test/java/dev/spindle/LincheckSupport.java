package dev.spindle;

import dev.spindle.internal.run.Engine;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;

/**
 * Runs a job to completion on the calling thread for Lincheck operations: each call gets a fresh
 * single-threaded engine that the caller drives, so a Lincheck thread needs no scheduler of its own and
 * the only objects shared between Lincheck's threads are the primitives under test.
 *
 * <p>Also the one set of model-checking options the primitives' Lincheck tests share ({@link #modelCheck}).
 *
 * <p>Only jobs that never wait for another thread may run here (polls: a choose ending in
 * {@link Alt#always}, sends, fills): a job that blocks would wait for a partner on another engine.
 */
final class LincheckSupport {
    private LincheckSupport() {
    }

    /** Runs {@code job} on the calling thread and gives its value (rethrowing a failure). */
    static <A> A run(Job<A> job) {
        Engine engine = new Engine("lincheck", 1, false, e -> {
            throw new AssertionError("uncaught failure in a Lincheck operation", e);
        });
        FiberCore<A> fiber = new FiberCore<>(job, engine, null, false);
        engine.pushGlobal(fiber);
        engine.await(fiber::isDone);
        return fiber.outcomeNow().getOrThrow();
    }

    /** A non-blocking attempt at {@code alt}: its value if it can commit now, else {@code otherwise}. */
    static <A> A poll(Alt<A> alt, A otherwise) {
        return run(Alt.choose(alt, Alt.always(otherwise)));
    }

    /**
     * Model-checks the operations of {@code test} against {@code spec}: 3 threads x 3 actors, 20 iterations
     * of 300 invocations each at full size, both scaled by {@link StressScale}.
     */
    static void modelCheck(Class<?> test, Class<?> spec) {
        new ModelCheckingOptions()
                .iterations(StressScale.of(20))
                .invocationsPerIteration(StressScale.of(300))
                .threads(3).actorsPerThread(3)
                .sequentialSpecification(spec)
                .check(test);
    }
}
