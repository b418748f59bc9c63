package dev.spindle.bench.workloads;

import dev.spindle.Job;
import java.time.Duration;
import dev.spindle.Scheduler;

/**
 * A one-shot signal built from the public API of today's core, which has no {@code IVar} yet: a "gate"
 * fiber that ends (with 1) once released, and waiters that {@code join} it.
 *
 * <p>A waiter's whole job is {@code gate.join()}, so while it waits it is exactly a fiber parked on a
 * join: the fiber object is itself the waiting continuation, with nothing else allocated per waiter
 * beyond its {@code Fiber} handle. Ending the gate by cancellation would make every joiner fail and
 * need a recovery frame (more bytes per waiter); instead the gate polls a flag every millisecond in a
 * sleep loop, which costs one timer and a little garbage per millisecond, independent of the number of
 * waiters (the measurement collects the garbage before it reads the heap).
 */
public final class GateSignal implements SpindleSignal {
    private static final Duration POLL = Duration.ofMillis(1);

    /** Set by the releasing thread; read by the gate fiber at each poll. */
    private volatile boolean released;

    /** A signal not yet released. */
    public GateSignal() {
    }

    @Override
    public Job<Job<Long>> open() {
        return gate().start().map(gate -> gate.join());
    }

    private Job<Long> gate() {
        return Job.defer(() -> released ? Job.result(1L) : Job.sleep(POLL).then(gate()));
    }

    @Override
    public void release(Scheduler scheduler) {
        released = true;
    }
}
