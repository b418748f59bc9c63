package dev.spindle.bench.workloads;

import java.util.List;
import java.util.Optional;

/** The eight workloads of docs/benchmarks.md, in its order. */
public final class Workloads {
    private static final List<Workload> ALL = List.of(
            new Skynet(), new PingPong(), new ThreadRing(), new SpawnJoin(),
            new IdleMemory(), new Timers(), new FanIn(), new Fib());

    private Workloads() {
    }

    /** Every workload. */
    public static List<Workload> all() {
        return ALL;
    }

    /** The workload called {@code name}, if any. */
    public static Optional<Workload> byName(String name) {
        return ALL.stream().filter(w -> w.name().equals(name)).findFirst();
    }
}
