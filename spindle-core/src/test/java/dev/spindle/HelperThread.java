package dev.spindle;

import java.util.function.Consumer;

/**
 * A plain thread that does a test's side work (drives a single-threaded scheduler, signals, submits from
 * outside) and whose failure reaches the test: {@link #join} rethrows it in the test thread, and an
 * optional callback runs on the helper as soon as it fails, so that whatever the test thread waits for can
 * end at once instead of at a hang guard.
 *
 * <pre>{@code
 * HelperThread outside = HelperThread.start("outside", () -> s.execute(task), e -> stop.set(true));
 * s.run(untilStopped);
 * outside.join(); // fails here, with the helper's exception as the cause, if it failed
 * }</pre>
 */
public final class HelperThread {
    /** The helper's work; anything it throws fails the test. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    private final Thread thread;
    private volatile Throwable failure; // written once by the helper before it ends; read by the test thread

    private HelperThread(String name, Body body, Consumer<Throwable> onFailure) {
        thread = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure = e;
                onFailure.accept(e);
            }
        }, name);
        thread.setDaemon(true); // a helper stuck after a failed test must not keep the test JVM alive
    }

    /** Starts a helper running {@code body}. */
    public static HelperThread start(String name, Body body) {
        return start(name, body, e -> { });
    }

    /** Starts a helper running {@code body}; if it fails, the helper then runs {@code onFailure} with the failure. */
    public static HelperThread start(String name, Body body, Consumer<Throwable> onFailure) {
        HelperThread helper = new HelperThread(name, body, onFailure);
        helper.thread.start();
        return helper;
    }

    /** Whether the helper has failed (it has then ended, or is running its failure callback). */
    public boolean failed() {
        return failure != null;
    }

    /**
     * Waits for the helper to end (failing, after the {@link Await#LONG} hang guard, if it does not) and fails
     * with its exception as the cause if it failed.
     */
    public void join() {
        Await.join(thread);
        Throwable e = failure;
        if (e != null) {
            throw new AssertionError("helper thread '" + thread.getName() + "' failed: " + e, e);
        }
    }
}
