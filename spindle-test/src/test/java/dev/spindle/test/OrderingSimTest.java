package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Job;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Same-instant ordering: seed 0 is scheduling order; other seeds permute; one seed always gives one order. */
class OrderingSimTest {

    /** Three fibers made runnable together, each appending its name (after a sleep, optionally). */
    private static String order(Simulation sim, Duration sleep) {
        StringBuilder out = new StringBuilder();
        List<Job<Void>> jobs = new ArrayList<>();
        for (String name : List.of("A", "B", "C", "D")) {
            jobs.add(Job.sleep(sleep).then(Job.run(() -> out.append(name))).named(name));
        }
        sim.run(Job.all(jobs));
        return out.toString();
    }

    /** Seed 0 runs work in the order it was scheduled, like the blog's test scheduler. */
    @Test
    void seedZeroIsSchedulingOrder() {
        assertThat(order(Simulation.create(), Duration.ZERO)).isEqualTo("ABCD");
    }

    /** Timers due at the same instant fire in the order they were set under seed 0. */
    @Test
    void seedZeroWakesSimultaneousSleepersInOrder() {
        Simulation sim = Simulation.create();
        assertThat(order(sim, Duration.ofSeconds(1))).isEqualTo("ABCD");
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(1));
    }

    /** Different seeds give different orders, for immediate work and for simultaneous timers alike. */
    @Test
    void differentSeedsGiveDifferentOrders() {
        Set<String> immediate = new HashSet<>();
        Set<String> timed = new HashSet<>();
        for (long seed = 1; seed <= 40; seed++) {
            immediate.add(order(Simulation.withSeed(seed), Duration.ZERO));
            timed.add(order(Simulation.withSeed(seed), Duration.ofMillis(5)));
        }
        assertThat(immediate).hasSizeGreaterThan(5);
        assertThat(timed).hasSizeGreaterThan(5);
    }

    /** The same seed gives the same order every time. */
    @Test
    void sameSeedGivesSameOrder() {
        for (long seed : new long[] {1, 7, -3, 123_456_789L}) {
            String first = order(Simulation.withSeed(seed), Duration.ZERO);
            for (int i = 0; i < 20; i++) {
                assertThat(order(Simulation.withSeed(seed), Duration.ZERO)).as("seed %d", seed).isEqualTo(first);
            }
        }
    }

    /** PCT schedules are reproducible too, and the seed is reported. */
    @Test
    void pctSchedulesAreReproducible() {
        Schedule pct = Schedule.pct(99, 3, 20);
        String first = order(Simulation.builder().schedule(pct).build(), Duration.ZERO);
        Set<String> orders = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            Simulation sim = Simulation.replay(pct.toString());
            orders.add(order(sim, Duration.ZERO));
            assertThat(sim.seed()).isEqualTo(99);
            assertThat(sim.schedule()).isEqualTo(pct);
        }
        assertThat(orders).containsExactly(first);
    }
}
