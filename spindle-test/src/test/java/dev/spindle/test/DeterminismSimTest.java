package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Fiber;
import dev.spindle.Job;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One schedule, one trace: byte-identical across runs, for a workload of sleeps, yields, starts and joins. */
class DeterminismSimTest {

    /** Workers that yield, sleep, start children and join them, logging as they go. */
    private static Job<Integer> workload(Simulation sim) {
        List<Job<Integer>> workers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            int id = w;
            workers.add(worker(sim, id, 0, 3).named("worker-" + id));
        }
        return Job.all(workers).map(values -> values.stream().mapToInt(Integer::intValue).sum());
    }

    private static Job<Integer> worker(Simulation sim, int id, int round, int rounds) {
        if (round == rounds) {
            return Job.result(id);
        }
        Job<Fiber<Integer>> child = Job.sleep(Duration.ofMillis(1 + (id * 7 + round * 3) % 5))
                .then(Job.of(() -> id * 10 + round))
                .named("child-" + id + "." + round)
                .start();
        return Job.yieldNow()
                .then(Job.run(() -> sim.note("worker " + id + " round " + round)))
                .then(Job.sleep(Duration.ofMillis((id + round) % 3)))
                .then(child)
                .flatMap(f -> Job.yieldNow().then(f.join()))
                .flatMap(v -> worker(sim, id, round + 1, rounds).map(rest -> rest + v));
    }

    private static String traceOf(Schedule schedule) {
        Simulation sim = Simulation.builder().schedule(schedule).build();
        int sum = sim.run(workload(sim));
        sim.note("sum " + sum);
        return sim.trace().toString();
    }

    /** 100 runs under each of several schedules give byte-identical traces. */
    @Test
    void sameScheduleGivesByteIdenticalTrace() {
        for (Schedule s : List.of(Schedule.seeded(0), Schedule.seeded(42), Schedule.pct(7, 3, 100))) {
            String first = TraceChecks.assertSameTraceEachRun(DeterminismSimTest::traceOf, s, 100);
            assertThat(first).contains("worker-3", "child-2.1", "time advances to", "starts", "finishes");
        }
    }

    /** Different seeds interleave the workload differently (the traces differ). */
    @Test
    void differentSeedsGiveDifferentTraces() {
        TraceChecks.assertSeedsGiveDifferentTraces(DeterminismSimTest::traceOf);
    }
}
