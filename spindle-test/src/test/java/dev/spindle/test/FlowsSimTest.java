package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Channel;
import dev.spindle.ChannelSubscriber;
import dev.spindle.Flows;
import dev.spindle.Job;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The Flow adapters in simulation: back-pressure is exact, and cancellation loses nothing. */
class FlowsSimTest {

    @Test
    void exactlyOneElementIsInFlightUnderEverySchedule() {
        Simulation.check(200, 5, sim -> {
            AtomicInteger produced = new AtomicInteger();
            Job<Optional<Integer>> source = Job.of(() -> Optional.of(produced.getAndIncrement()));
            Channel<Integer> ch = new Channel<>("sink");
            ChannelSubscriber<Integer> sink = Flows.subscriber(sim.scheduler(), ch);
            Flows.publisher(sim.scheduler(), source).subscribe(sink);
            for (int taken = 1; taken <= 3; taken++) {
                assertThat(sim.run(ch.take())).isEqualTo(taken - 1);
                sim.runUntilIdle();
                assertThat(produced.get()).as("produced after %d taken", taken).isEqualTo(taken + 1);
            }
            sink.cancel();
            sim.close();
            assertThat(produced).hasValue(4);
        });
    }

    @Test
    void aSlowConsumerSlowsTheProducerInVirtualTime() {
        Simulation sim = Simulation.create();
        AtomicInteger produced = new AtomicInteger();
        Job<Optional<Integer>> source = Job.of(() -> produced.get() < 3
                ? Optional.of(produced.getAndIncrement()) : Optional.<Integer>empty());
        Channel<Integer> ch = new Channel<>("sink");
        ChannelSubscriber<Integer> sink = Flows.subscriber(sim.scheduler(), ch);
        Flows.publisher(sim.scheduler(), source).subscribe(sink);
        Job<Integer> consumer = Job.defer(() -> ch.take()).flatMap(a -> Job.sleep(Duration.ofSeconds(1))
                .then(ch.take()).flatMap(b -> Job.sleep(Duration.ofSeconds(1)).then(ch.take())
                        .map(c -> a + b + c)));
        int sum = sim.run(consumer.flatMap(total -> sink.done().map(v -> total)));
        assertThat(sum).isEqualTo(3);
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(2));
        sim.close();
    }
}
