package dev.spindle.bench.soak;

import dev.spindle.Outcome;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

/**
 * What the soak found wrong, from any thread: the workload's own checks (a mutex held twice, a message taken
 * twice, an unexpected failure) and the rest-point checks. Keeps the first {@value #KEPT} descriptions and
 * counts the rest.
 */
final class Violations {
    /** Descriptions kept for the report; the later ones are only counted. */
    static final int KEPT = 20;

    private final List<String> kept = new ArrayList<>(); // guarded by this
    private int count; // guarded by this

    /** Records one violation. */
    synchronized void add(String what) {
        if (kept.size() < KEPT) {
            kept.add(what);
        }
        count++;
    }

    /** Number of violations so far. */
    synchronized int count() {
        return count;
    }

    /** The first {@value #KEPT} descriptions. */
    synchronized List<String> first() {
        return List.copyOf(kept);
    }

    /**
     * Records {@code outcome} of a fiber of the workload ({@code where}) as a violation unless it is one the
     * workload plans for: success, cancellation, a {@link PlannedFailure} or a timeout.
     */
    void checkOutcome(String where, Outcome<?> outcome) {
        if (outcome instanceof Outcome.Failure<?> failure) {
            checkFailure(where, failure.error());
        }
    }

    /** Records {@code error}, which ended {@code where}, as a violation unless the workload planned it. */
    void checkFailure(String where, Throwable error) {
        if (!isPlanned(error)) {
            add(where + " failed unexpectedly: " + stackTrace(error));
        }
    }

    /** Whether {@code error} is a failure the workload causes on purpose (maybe wrapped; any suppressed too). */
    static boolean isPlanned(Throwable error) {
        Throwable e = error;
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        if (!(e instanceof PlannedFailure || e instanceof TimeoutException || e instanceof CancellationException)) {
            return false;
        }
        for (Throwable s : e.getSuppressed()) {
            if (!isPlanned(s)) {
                return false;
            }
        }
        return true;
    }

    private static String stackTrace(Throwable e) {
        StringWriter text = new StringWriter();
        e.printStackTrace(new PrintWriter(text));
        return text.toString();
    }
}
