package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.Simulation;
import dev.spindle.test.SimulationTest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** {@link Messaging} in virtual time, under many schedules: the timeouts fire at exactly their limit. */
final class MessagingSimTest {

    /** The take commits at once; the second choose times out after exactly its 20 ms. */
    @SimulationTest(schedules = 100)
    void secondTakeTimesOutAtItsLimit(Simulation sim) {
        assertThat(sim.run(Messaging.takeTwice())).containsExactly("got hello", "timed out");
        assertThat(sim.elapsed()).isEqualTo(Duration.ofMillis(20));
    }

    /** The client gives up at 1 s; the server, done at 3 s, takes the nack and drops its answer. */
    @SimulationTest(schedules = 100)
    void nackReachesTheServer(Simulation sim) {
        assertThat(sim.run(Messaging.askWithPatience(Duration.ofSeconds(3), Duration.ofSeconds(1))))
                .isEqualTo("timed out / client gave up, answer dropped");
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(3));
    }

    /** A server quicker than the client's patience answers, whatever the schedule. */
    @SimulationTest(schedules = 100)
    void quickServerAnswers(Simulation sim) {
        assertThat(sim.run(Messaging.askWithPatience(Duration.ofSeconds(1), Duration.ofSeconds(3))))
                .isEqualTo("answer to q / answered");
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(1));
    }

    /** Channel, IVar, mailbox and promise give the same results under every schedule. */
    @SimulationTest(schedules = 100)
    void everyScheduleGivesTheSameResults(Simulation sim) {
        assertThat(sim.run(Messaging.channelSum())).isEqualTo(42);
        assertThat(sim.run(Messaging.fillOnce())).containsExactly("hello, ada", "hello, ada", "refilled: false");
        assertThat(sim.run(Messaging.mailboxSum())).isEqualTo(6);
        AtomicInteger loads = new AtomicInteger();
        assertThat(sim.run(Messaging.sharedLoad(loads))).containsExactly("config #1", "config #1", "config #1");
        assertThat(loads).hasValue(1);
    }
}
