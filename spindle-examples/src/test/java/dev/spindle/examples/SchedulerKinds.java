package dev.spindle.examples;

import dev.spindle.Scheduler;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/** The schedulers every example job is run on in the tests: single-threaded and 1, 2 and 4 workers. */
final class SchedulerKinds {
    private SchedulerKinds() {
    }

    /** Argument source for {@code @MethodSource("dev.spindle.examples.SchedulerKinds#all")}. */
    static Stream<Named<Supplier<Scheduler>>> all() {
        return Stream.of(
                Named.of("single-threaded", Scheduler::singleThreaded),
                Named.of("1 worker", () -> Scheduler.create(1)),
                Named.of("2 workers", () -> Scheduler.create(2)),
                Named.of("4 workers", () -> Scheduler.create(4)));
    }
}
