package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Fiber;
import dev.spindle.Job;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The executor view and fiber futures in simulation: the view's blocking methods drive the simulation,
 * and their time limits are virtual.
 */
class ExecutorServiceSimTest {

    private static Callable<String> sleepThen(Duration d, String value) {
        return () -> {
            Job.sleep(d).await();
            return value;
        };
    }

    @Test
    void invokeAllAndAwaitTerminationTakeVirtualTime() throws Exception {
        Simulation sim = Simulation.create();
        ExecutorService view = sim.scheduler().asExecutorService();
        List<Future<String>> fs = view.invokeAll(List.of(sleepThen(Duration.ofHours(1), "a"),
                sleepThen(Duration.ofHours(2), "b")));
        assertThat(fs).extracting(Future::resultNow).containsExactly("a", "b");
        assertThat(sim.elapsed()).isEqualTo(Duration.ofHours(2));

        view.submit(sleepThen(Duration.ofMinutes(30), "c"));
        view.shutdown();
        assertThat(view.awaitTermination(10, TimeUnit.MINUTES)).isFalse();
        assertThat(sim.elapsed()).isEqualTo(Duration.ofHours(2).plusMinutes(10));
        assertThat(view.awaitTermination(1, TimeUnit.DAYS)).isTrue();
        assertThat(sim.elapsed()).isEqualTo(Duration.ofHours(2).plusMinutes(30));
        sim.close();
    }

    @Test
    void invokeAnyTimesOutInVirtualTimeAndCancelsItsTasks() {
        Simulation sim = Simulation.create();
        ExecutorService view = sim.scheduler().asExecutorService();
        AtomicInteger finalized = new AtomicInteger();
        Callable<String> slow = () -> {
            try {
                return sleepThen(Duration.ofDays(1), "slow").call();
            } finally {
                finalized.incrementAndGet();
            }
        };
        assertThatThrownBy(() -> view.invokeAny(List.of(slow, slow), 1, TimeUnit.SECONDS))
                .isInstanceOf(TimeoutException.class);
        view.shutdown();
        sim.close();
        assertThat(finalized).hasValue(2);
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aFibersFutureCompletesWhenTheSimulationRunsIt() {
        Simulation sim = Simulation.create();
        Fiber<String> f = sim.run(Job.sleep(Duration.ofSeconds(5)).map(v -> "late").startDetached());
        CompletableFuture<String> future = f.toCompletableFuture();
        assertThat(future).isNotDone();
        sim.advance(Duration.ofSeconds(5));
        assertThat(future).isCompletedWithValue("late");

        Fiber<Void> forever = sim.run(Job.sleep(Duration.ofDays(1)).startDetached());
        CompletableFuture<Void> cancelled = forever.toCompletableFuture();
        cancelled.cancel(true);
        sim.close();
        assertThat(forever.isDone()).isTrue();
        assertThat(sim.elapsed()).as("the cancelled sleeper's timer was removed").isEqualTo(Duration.ofSeconds(5));
    }
}
