package dev.spindle.sync;

import dev.spindle.test.fixture.SchedulerKind;
import java.util.stream.Stream;

/**
 * Who the actors of a scenario are: fibers on a scheduler of a fixture {@link SchedulerKind} (on
 * {@link SchedulerKind#DIRECT}, direct fibers running each step's blocking form, marl's style), or
 * ordinary threads running the blocking forms ({@link #THREADS}). The same scenario under each is how
 * the package promises identical semantics for fibers, direct fibers and threads.
 *
 * @param kind the scheduler kind, or null for ordinary threads
 */
record Actors(SchedulerKind kind) {
    /** Ordinary threads, no scheduler. */
    static final Actors THREADS = new Actors(null);

    /** Fibers on a scheduler of {@code kind}. */
    static Actors on(SchedulerKind kind) {
        return new Actors(kind);
    }

    /** Every scheduler kind, then ordinary threads: for {@code @MethodSource("dev.spindle.sync.Actors#all")}. */
    static Stream<Actors> all() {
        return Stream.concat(fiberKinds(), Stream.of(THREADS));
    }

    /**
     * Fibers on every scheduler kind on real threads (for what only fibers have: cancellation, jobs); the
     * simulator is not among them, since spindle-core's tests are built without it.
     */
    static Stream<Actors> fiberKinds() {
        return SchedulerKind.realThreads().map(Actors::on);
    }

    /** Whether actors are direct fibers running the blocking forms. */
    boolean direct() {
        return kind != null && kind.isDirect();
    }

    /** Whether actors are fibers (else ordinary threads). */
    boolean fibers() {
        return kind != null;
    }

    /** {@code n}, or fewer for plain threads (one platform thread per actor), at most {@code threadCap}. */
    int scale(int n, int threadCap) {
        return fibers() ? n : Math.min(n, threadCap);
    }

    @Override
    public String toString() {
        return kind == null ? "threads" : kind.toString();
    }
}
