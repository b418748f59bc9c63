package dev.spindle;

import dev.spindle.internal.run.Engine;

/**
 * Runs a job to completion on the calling thread for Lincheck operations: each call gets a fresh
 * single-threaded engine that the caller drives, so a Lincheck thread needs no scheduler of its own and
 * the only objects shared between Lincheck's threads are the primitives under test.
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
        FiberImpl<A> fiber = new FiberImpl<>(job, engine, null, false);
        engine.pushGlobal(fiber);
        engine.await(fiber::isDone);
        return fiber.outcomeNow().getOrThrow();
    }

    /** A non-blocking attempt at {@code alt}: its value if it can commit now, else {@code otherwise}. */
    static <A> A poll(Alt<A> alt, A otherwise) {
        return run(Alt.choose(alt, Alt.always(otherwise)));
    }
}
