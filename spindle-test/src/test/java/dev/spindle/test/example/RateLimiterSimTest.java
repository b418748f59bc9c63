package dev.spindle.test.example;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Job;
import dev.spindle.test.Simulation;
import dev.spindle.test.SimulationTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rate limiter, tested in virtual time: seconds of waiting run in microseconds, exactly. */
class RateLimiterSimTest {
    private static final Duration INTERVAL = Duration.ofMillis(200); // 5 per second

    /** Ten callers arriving together pass 200 ms apart: the last after 1.8 s of virtual time. */
    @Test
    void spreadsABurstOverTime() {
        Simulation sim = Simulation.create();
        RateLimiter limiter = new RateLimiter(INTERVAL);
        Instant t0 = sim.now();
        List<Job<Duration>> callers = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            callers.add(limiter.acquire().then(Job.now()).map(t -> Duration.between(t0, t)));
        }

        List<Duration> passed = sim.run(Job.all(callers));

        List<Duration> expected = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            expected.add(INTERVAL.multipliedBy(i));
        }
        assertThat(passed).containsExactlyElementsOf(expected);
        assertThat(sim.elapsed()).isEqualTo(Duration.ofMillis(1_800));
    }

    /** Idle time does not build up a burst: after ten quiet seconds, callers are spaced again. */
    @Test
    void idleTimeDoesNotAccumulatePermits() {
        Simulation sim = Simulation.create();
        RateLimiter limiter = new RateLimiter(INTERVAL);
        sim.run(limiter.acquire());

        sim.advance(Duration.ofSeconds(10));
        Instant before = sim.now();
        sim.run(limiter.acquire());
        sim.run(limiter.acquire());

        assertThat(Duration.between(before, sim.now())).isEqualTo(INTERVAL);
    }

    /**
     * Under any interleaving of callers arriving at staggered times, no window of one interval lets two
     * through: the property checked under 100 schedules.
     */
    @SimulationTest(schedules = 100)
    void neverLetsTwoCallersThroughWithinOneInterval(Simulation sim) {
        RateLimiter limiter = new RateLimiter(INTERVAL);
        List<Instant> passes = Collections.synchronizedList(new ArrayList<>());
        List<Job<Void>> callers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Duration arrival = Duration.ofMillis(i * 70L % 300);
            callers.add(Job.sleep(arrival).then(Job.yieldNow()).then(limiter.acquire())
                    .then(Job.now()).map(passes::add).then(Job.unit()).named("caller-" + i));
        }

        sim.run(Job.all(callers));

        List<Instant> sorted = new ArrayList<>(passes);
        Collections.sort(sorted);
        for (int i = 1; i < sorted.size(); i++) {
            assertThat(Duration.between(sorted.get(i - 1), sorted.get(i))).isGreaterThanOrEqualTo(INTERVAL);
        }
        assertThat(sorted).hasSize(8);
    }
}
