package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Alt;
import dev.spindle.Channel;
import dev.spindle.Job;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A resource taken from a channel is released exactly when it was handed over, however the taker's
 * cancellation falls: the hand-over and the cancellation are due at the same virtual instant, so the
 * explored schedules put the cancellation before the take's commit, after the use began, and between the
 * two. The plain composition {@code take().flatMap(r -> use(r).ensure(release(r)))} loses the resource in
 * that last window, which shows the schedules reach it.
 */
class BracketReleasesSimTest {
    private static final Duration LIMIT = Duration.ofMillis(10);

    /** Acquire, use and release composed one way: the bracket, or the plain composition. */
    private interface Composition extends BiFunction<Job<String>, Function<String, Job<Void>>, Job<Integer>> {
    }

    private static Scenario takeCancelledAtTheHandOver(Composition compose) {
        return sim -> {
            Channel<String> ch = new Channel<>("ch");
            List<String> released = new CopyOnWriteArrayList<>();
            Job<Integer> taker = compose.apply(ch.take(), r -> Job.run(() -> released.add(r)));
            // the giver offers at the instant the taker is cancelled and gives up one limit later
            Job<Boolean> giver = Job.sleep(LIMIT).then(Alt.choose(ch.give("resource").wrap(v -> true),
                    Alt.after(LIMIT).wrap(v -> false)));
            boolean delivered = sim.run(taker.start().flatMap(t -> giver.start().flatMap(g ->
                    Job.sleep(LIMIT).then(t.cancel()).then(g.join()))));
            assertThat(released).as("resources released, the hand-over %s", delivered ? "done" : "not done")
                    .isEqualTo(delivered ? List.of("resource") : List.of());
        };
    }

    private static Job<Integer> use(String resource) {
        return Job.yieldNow().then(Job.result(resource.length()));
    }

    @Test
    void aBracketReleasesEveryResourceHandedOver() {
        Simulation.check(1_000, 11, takeCancelledAtTheHandOver((acquire, release) ->
                Job.bracket(acquire, BracketReleasesSimTest::use, release)));
    }

    @Test
    void thePlainCompositionLosesOneInSomeSchedule() {
        ExplorationReport report = Simulation.explore(1_000, 11, takeCancelledAtTheHandOver((acquire, release) ->
                acquire.flatMap(r -> use(r).ensure(release.apply(r)))));
        assertThat(report.failed()).as("a schedule with the cancellation between commit and use").isTrue();
    }
}
