package dev.spindle;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fresh scheduler for each test of a class ({@code @RegisterExtension}), closed after the test with the
 * same leak check as {@link SchedulerKind#use}; a failure that reached the uncaught handler fails the test
 * unless the test took the recorder with {@link #uncaught()} and checked it itself.
 */
final class SchedulerExtension implements BeforeEachCallback, AfterEachCallback {
    private final SchedulerKind kind;
    private Scheduler scheduler;
    private UncaughtRecorder uncaught;
    private boolean uncaughtChecked;

    SchedulerExtension(SchedulerKind kind) {
        this.kind = kind;
    }

    /** The current test's scheduler. */
    Scheduler scheduler() {
        return scheduler;
    }

    /** The kind of {@link #scheduler()}. */
    SchedulerKind kind() {
        return kind;
    }

    /** Runs {@code job} on the current test's scheduler and returns its value (see {@link Scheduler#run}). */
    <A> A run(Job<A> job) {
        return scheduler.run(job);
    }

    /** Runs {@code job} on the current test's scheduler and returns its outcome. */
    <A> Outcome<A> outcome(Job<A> job) {
        return scheduler.runOutcome(job);
    }

    /** The current test's uncaught-failure recorder; the test then checks it itself. */
    UncaughtRecorder uncaught() {
        uncaughtChecked = true;
        return uncaught;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        uncaught = new UncaughtRecorder();
        uncaughtChecked = false;
        scheduler = kind.create(uncaught);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Scheduler s = scheduler;
        scheduler = null;
        if (context.getExecutionException().isPresent()) {
            s.shutdownNow();
            return;
        }
        Schedulers.closeAndCheck(s);
        if (!uncaughtChecked) {
            uncaught.assertNone();
        }
    }
}
