package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * An uncaught-failure handler for test schedulers that records what it receives, so failures inside
 * fibers reach the test instead of stderr.
 */
final class UncaughtRecorder implements Consumer<Throwable> {
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();

    @Override
    public void accept(Throwable e) {
        failures.add(e);
    }

    /** What the handler received so far, in order. */
    List<Throwable> failures() {
        return List.copyOf(failures);
    }

    /** Fails, showing the first failure's stack trace, when the handler received anything. */
    void assertNone() {
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError(
                    failures.size() + " failure(s) reached the scheduler's uncaught handler; first: " + failures.get(0));
            failures.forEach(error::addSuppressed);
            throw error;
        }
    }

    /** Asserts that the handler received exactly {@code expected}, in this order (by identity). */
    void assertExactly(Throwable... expected) {
        assertThat(failures).as("failures that reached the uncaught handler").containsExactly(expected);
    }
}
