package dev.spindle.bench.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the workload shares with the rest check: the violations, the shared mutexes, the flows built since
 * the last rest point, and counters for the progress line.
 */
final class SoakState {
    /** Number of shared mutexes: few, so that sections of unrelated episodes contend. */
    static final int MUTEXES = 3;

    final Violations violations = new Violations();
    final List<GuardedMutex> mutexes;
    /** Flows built since the last rest point; the rest check drains, checks and clears them. */
    final Queue<Flow> flows = new ConcurrentLinkedQueue<>();
    /** Episodes finished. */
    final LongAdder episodes = new LongAdder();
    /** Cancellations requested by the workload (fiber.cancel, not counting timeouts and lost races). */
    final LongAdder cancels = new LongAdder();
    /** Messages sent, over the flows already checked. */
    final LongAdder messages = new LongAdder();
    /** Wait-group fan-outs finished. */
    final LongAdder waitGroups = new LongAdder();

    SoakState() {
        List<GuardedMutex> m = new ArrayList<>();
        for (int i = 0; i < MUTEXES; i++) {
            m.add(new GuardedMutex("soak-mutex-" + i, violations));
        }
        this.mutexes = List.copyOf(m);
    }

    /** Registers a flow for the next rest check; returns it. */
    Flow register(Flow flow) {
        flows.add(flow);
        return flow;
    }

    /** Critical sections entered so far, over every shared mutex. */
    long sections() {
        long n = 0;
        for (GuardedMutex m : mutexes) {
            n += m.sections();
        }
        return n;
    }
}
