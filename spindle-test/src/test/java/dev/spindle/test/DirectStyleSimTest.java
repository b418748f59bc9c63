package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Channel;
import dev.spindle.Direct;
import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.sync.WaitGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Direct-style code runs deterministically in the simulator: direct fibers that sleep, exchange over a
 * channel and wait on a wait group with {@code awaitBlocking} give a byte-identical trace for one schedule,
 * different traces for different seeds, and exactly the virtual time their sleeps add up to.
 */
class DirectStyleSimTest {
    private static final int PRODUCERS = 3;
    private static final int ROUNDS = 4;

    /**
     * The simulator runs direct bodies only on the continuation backend, which surefire's export flag
     * selects: without it every test here would fail for that reason alone, so say so first.
     */
    @BeforeAll
    static void continuationBackend() {
        assertThat(Direct.backend())
                .as("direct bodies need --add-exports java.base/jdk.internal.vm=ALL-UNNAMED in the simulator")
                .isEqualTo(Direct.Backend.CONTINUATION);
    }

    /** Milliseconds producer {@code id} sleeps before its give of round {@code round}: 0 to 3, varied. */
    private static int pauseMillis(int id, int round) {
        return (id * 3 + round * 2) % 4;
    }

    /** The virtual time the workload takes: the consumer is always ready, so the slowest producer's sleeps. */
    private static Duration expectedElapsed() {
        int longest = 0;
        for (int id = 0; id < PRODUCERS; id++) {
            int total = 0;
            for (int round = 0; round < ROUNDS; round++) {
                total += pauseMillis(id, round);
            }
            longest = Math.max(longest, total);
        }
        return Duration.ofMillis(longest);
    }

    /** What the consumer's sum must be: every value given, once. */
    private static int expectedSum() {
        int sum = 0;
        for (int id = 0; id < PRODUCERS; id++) {
            for (int round = 0; round < ROUNDS; round++) {
                sum += id * 100 + round;
            }
        }
        return sum;
    }

    /**
     * Producers give {@code id * 100 + round} after a pause each round and count a wait group down when
     * they end; a consumer takes every value; a reporter waits on the wait group with {@code awaitBlocking}.
     * All are direct bodies written as loops, noting to the trace as they go. Gives the consumer's sum.
     */
    private static Job<Integer> workload(Simulation sim) {
        Channel<Integer> values = new Channel<>("values");
        WaitGroup producing = new WaitGroup(PRODUCERS, "producers");
        List<Job<?>> fibers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int id = p;
            fibers.add(Job.direct(() -> {
                try {
                    for (int round = 0; round < ROUNDS; round++) {
                        Job.sleep(Duration.ofMillis(pauseMillis(id, round))).await();
                        values.give(id * 100 + round).await();
                        sim.note("producer " + id + " gave " + (id * 100 + round));
                    }
                } finally {
                    producing.done();
                }
                return null;
            }).named("producer-" + id));
        }
        fibers.add(Job.direct(() -> {
            producing.awaitBlocking();  // suspends this direct fiber
            sim.note("reporter: producers done at " + sim.elapsed());
            return null;
        }).named("reporter"));
        Job<Integer> consumer = Job.direct(() -> {
            int sum = 0;
            for (int i = 0; i < PRODUCERS * ROUNDS; i++) {
                int value = values.take().await();
                sim.note("consumer took " + value);
                sum += value;
            }
            return sum;
        }).named("consumer");
        return Job.direct(() -> {
            List<Fiber<?>> started = new ArrayList<>();
            for (Job<?> fiber : fibers) {
                started.add(fiber.start().await());
            }
            int sum = consumer.await();
            for (Fiber<?> fiber : started) {
                fiber.join().await();
            }
            return sum;
        }).named("main");
    }

    /** Runs the workload under {@code schedule}, checks its result and time, and gives its trace. */
    private static String traceOf(Schedule schedule) {
        try (Simulation sim = Simulation.builder().schedule(schedule).build()) {
            int sum = sim.run(workload(sim));
            sim.note("sum " + sum);
            assertThat(sum).as("sum under %s", schedule).isEqualTo(expectedSum());
            assertThat(sim.elapsed()).as("virtual time under %s", schedule).isEqualTo(expectedElapsed());
            assertThat(sim.uncaughtFailures()).isEmpty();
            return sim.trace().toString();
        }
    }

    /** 20 runs under each of several schedules give byte-identical traces, with every note in them. */
    @Test
    void sameScheduleGivesByteIdenticalTrace() {
        for (Schedule s : List.of(Schedule.seeded(0), Schedule.seeded(42), Schedule.seeded(-7),
                Schedule.pct(7, 3, 200))) {
            String first = TraceChecks.assertSameTraceEachRun(DirectStyleSimTest::traceOf, s, 20);
            assertThat(expectedElapsed()).as("producer 1 sleeps 3 + 1 + 3 + 1 ms").isEqualTo(Duration.ofMillis(8));
            assertThat(first).contains("producer-2", "consumer", "reporter", "time advances to",
                    "producer 2 gave 203", "consumer took 203",
                    "reporter: producers done at " + expectedElapsed(), "sum " + expectedSum());
        }
    }

    /** Different seeds interleave the direct fibers differently (the traces differ). */
    @Test
    void differentSeedsGiveDifferentTraces() {
        TraceChecks.assertSeedsGiveDifferentTraces(DirectStyleSimTest::traceOf);
    }

    /** Virtual time moves only at the sleeps: an hour-long await in a direct body takes no real hour. */
    @Test
    void virtualTimeAdvancesAsTheSleepsSay() {
        try (Simulation sim = Simulation.create()) {
            Duration slept = sim.run(Job.direct(() -> {
                Job.sleep(Duration.ofHours(1)).await();
                Job.sleep(Duration.ofMillis(1)).await();
                return sim.elapsed();
            }));
            assertThat(slept).isEqualTo(Duration.ofHours(1).plusMillis(1));
            assertThat(sim.elapsed()).isEqualTo(slept);
        }
    }
}
