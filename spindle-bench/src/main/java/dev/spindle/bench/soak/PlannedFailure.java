package dev.spindle.bench.soak;

/** A failure the workload throws on purpose: the one failure, besides a timeout, that an episode may end with. */
final class PlannedFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PlannedFailure() {
        super("planned failure", null, false, false);
    }
}
