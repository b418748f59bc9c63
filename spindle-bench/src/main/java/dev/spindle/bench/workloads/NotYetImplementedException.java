package dev.spindle.bench.workloads;

/**
 * Thrown by a run whose implementation needs API that does not exist yet (for Spindle: {@code Channel},
 * {@code IVar}). The runner reports it and exits with status 2; the scripts count it as skipped.
 */
public final class NotYetImplementedException extends Exception {
    private static final long serialVersionUID = 1L;

    /** An exception saying what is missing. */
    public NotYetImplementedException(String message) {
        super(message);
    }
}
