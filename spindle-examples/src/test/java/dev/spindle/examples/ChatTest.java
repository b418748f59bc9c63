package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.test.Simulation;
import dev.spindle.test.net.Faults;
import dev.spindle.test.net.Network;
import dev.spindle.test.net.SimNetwork;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Chat}: the same conversation on real sockets and on a simulated network, under many schedules. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class ChatTest {
    private static final List<String> HEARD = List.of(
            "welcome alice, 1 here", "welcome bob, 2 here", "alice: hi bob", "bob left");

    /** Alice joins, Bob joins, Alice speaks, Bob leaves: what each of them reads. */
    static Job<List<String>> conversation(Network server, Network alice, Network bob, String serverHost) {
        return server.listen(0).flatMap(l -> Chat.server(l).start().flatMap(srv ->
                alice.connect(serverHost, l.port()).flatMap(a -> bob.connect(serverHost, l.port()).flatMap(b -> {
                    Chat.Lines ai = new Chat.Lines(a);
                    Chat.Lines bi = new Chat.Lines(b);
                    return Chat.say(a, "alice").then(ai.next()).flatMap(wa ->
                            Chat.say(b, "bob").then(bi.next()).flatMap(wb ->
                            Chat.say(a, "hi bob").then(bi.next()).flatMap(heard ->
                            b.close().then(ai.next()).map(left ->
                                    List.of(wa.orElseThrow(), wb.orElseThrow(), heard.orElseThrow(),
                                            left.orElseThrow())))))
                            .ensure(a.close());
                })).ensure(srv.cancel()).ensure(l.close())));
    }

    /**
     * A partition between Alice and the server holds her greeting and its welcome until it heals, 5 s of
     * virtual time later; nothing is lost, under many schedules.
     */
    @Test
    void aPartitionHoldsTrafficUntilItHeals() {
        Simulation.check(100, 3, sim -> {
            SimNetwork net = SimNetwork.create(sim, Faults.NONE.withLatency(Duration.ofMillis(1), Duration.ZERO));
            Network server = net.host("server");
            Network alice = net.host("alice");
            String welcome = sim.run(server.listen(0).flatMap(l -> Chat.server(l).start().flatMap(srv ->
                    alice.connect("server", l.port()).flatMap(a -> {
                        net.partition("alice", "server");
                        Chat.Lines lines = new Chat.Lines(a);
                        return Job.sleep(Duration.ofSeconds(5)).then(net.heal("alice", "server")).start()
                                .then(Chat.say(a, "alice"))
                                .then(lines.next())
                                .map(line -> line.orElseThrow())
                                .ensure(a.close());
                    }).ensure(srv.cancel())).ensure(l.close())));
            assertThat(welcome).isEqualTo("welcome alice, 1 here");
            assertThat(sim.elapsed()).isGreaterThanOrEqualTo(Duration.ofSeconds(5));
        });
    }

    @Test
    void onRealSockets() {
        try (Scheduler s = Scheduler.create(2)) {
            assertThat(s.run(conversation(Network.system(), Network.system(), Network.system(), "127.0.0.1")))
                    .isEqualTo(HEARD);
        }
    }

    @Test
    void inSimulationUnderManySchedulesWithJitter() {
        Simulation.check(200, 11, sim -> {
            SimNetwork net = SimNetwork.create(sim, Faults.NONE.withLatency(Duration.ofMillis(1),
                    Duration.ofMillis(10)));
            assertThat(sim.run(conversation(net.host("server"), net.host("alice"), net.host("bob"), "server")))
                    .isEqualTo(HEARD);
        });
    }

    /** Lines survive a network that cuts reads and writes anywhere, as TCP may. */
    @Test
    void inSimulationWithReadsAndWritesSplit() {
        Simulation.check(200, 13, sim -> {
            SimNetwork net = SimNetwork.create(sim, Faults.NONE.withLatency(Duration.ofMillis(1),
                    Duration.ofMillis(10)).withSplit(0.3));
            assertThat(sim.run(conversation(net.host("server"), net.host("alice"), net.host("bob"), "server")))
                    .isEqualTo(HEARD);
        });
    }
}
