package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Alt;
import dev.spindle.Channel;
import dev.spindle.Job;
import dev.spindle.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An alternative with a time limit either commits or times out having taken nothing: a giver that hands
 * its message over just as a taker's limit runs out never sees it delivered to a taker that reports a
 * timeout. The hand-over and the limit are due at the same virtual instant, so the explored schedules
 * order them both ways.
 */
class TimeoutLosesNothingSimTest {
    private static final Duration LIMIT = Duration.ofMillis(10);
    private static final AtomicInteger DELIVERED = new AtomicInteger();
    private static final AtomicInteger TIMED_OUT = new AtomicInteger();

    private static final Scenario TAKE_AT_THE_LIMIT = sim -> {
        Channel<Integer> ch = new Channel<>("ch");
        Job<Object> taker = ch.take().timeout(LIMIT).attempt().map(o -> o);
        // the giver offers its message at the taker's limit and gives up one limit later
        Job<Object> giver = Job.sleep(LIMIT).then(Alt.choose(ch.give(7).wrap(v -> true),
                Alt.after(LIMIT).wrap(v -> false))).map(b -> b);
        List<Object> ends = sim.run(Job.all(List.of(taker, giver)));
        Outcome<?> took = (Outcome<?>) ends.get(0);
        if ((Boolean) ends.get(1)) {
            DELIVERED.incrementAndGet();
            assertThat(took).as("what the taker got of a message the giver handed over").isEqualTo(Outcome.success(7));
        } else {
            TIMED_OUT.incrementAndGet();
            assertThat(took).isInstanceOfSatisfying(Outcome.Failure.class,
                    f -> assertThat(f.error()).isInstanceOf(TimeoutException.class));
        }
    };

    @Test
    void aTakeThatTimesOutHasTakenNothing() {
        DELIVERED.set(0);
        TIMED_OUT.set(0);
        Simulation.check(1_000, 5, TAKE_AT_THE_LIMIT);
        assertThat(DELIVERED.get()).as("schedules in which the hand-over came first").isPositive();
        assertThat(TIMED_OUT.get()).as("schedules in which the limit came first").isPositive();
    }
}
