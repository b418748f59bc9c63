package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;

/** The determinism checks shared by the trace tests: one schedule, one trace; other seeds, other traces. */
final class TraceChecks {
    private TraceChecks() {
    }

    /** Runs {@code traceOf} {@code runs} times under {@code schedule}; asserts one byte-identical trace, gives it. */
    static String assertSameTraceEachRun(Function<Schedule, String> traceOf, Schedule schedule, int runs) {
        String first = traceOf.apply(schedule);
        for (int i = 1; i < runs; i++) {
            assertThat(traceOf.apply(schedule)).as("run %d of %s", i, schedule).isEqualTo(first);
        }
        return first;
    }

    /** Asserts that seeds 0..9 give more than 5 distinct traces: the seed really steers the interleaving. */
    static void assertSeedsGiveDifferentTraces(Function<Schedule, String> traceOf) {
        Set<String> traces = new HashSet<>();
        for (long seed = 0; seed < 10; seed++) {
            traces.add(traceOf.apply(Schedule.seeded(seed)));
        }
        assertThat(traces).hasSizeGreaterThan(5);
    }
}
