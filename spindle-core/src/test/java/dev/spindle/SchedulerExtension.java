package dev.spindle;

import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fresh scheduler for each test of a class ({@code @RegisterExtension}): a {@link SchedulerFixture}
 * opened before the test and closed after it, with its leak check; a failure that reached the uncaught
 * handler fails the test unless the test took the recorder with {@link #uncaught()} and checked it itself.
 */
final class SchedulerExtension implements BeforeEachCallback, AfterEachCallback {
    private final SchedulerKind kind;
    private SchedulerFixture fixture;
    private UncaughtRecorder uncaught;
    private boolean uncaughtChecked;

    SchedulerExtension(SchedulerKind kind) {
        this.kind = kind;
    }

    /** The current test's scheduler. */
    Scheduler scheduler() {
        return fixture.scheduler();
    }

    /** The kind of {@link #scheduler()}. */
    SchedulerKind kind() {
        return kind;
    }

    /** Runs {@code job} on the current test's scheduler and returns its value (see {@link Scheduler#run}). */
    <A> A run(Job<A> job) {
        return fixture.run(job);
    }

    /** Runs {@code job} on the current test's scheduler and returns its outcome. */
    <A> Outcome<A> outcome(Job<A> job) {
        return fixture.scheduler().runOutcome(job);
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
        fixture = kind.open(uncaught);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        SchedulerFixture f = fixture;
        fixture = null;
        if (context.getExecutionException().isPresent()) {
            f.abort(); // the test failed already: cancel what it left, report nothing more
            return;
        }
        f.close();
        if (!uncaughtChecked) {
            uncaught.assertNone();
        }
    }
}
