package dev.spindle.test.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Alt;
import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import dev.spindle.test.DeadlockException;
import dev.spindle.test.ExplorationReport;
import dev.spindle.test.Simulation;
import java.net.ConnectException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The simulated network: the same service code as on real sockets, latency, partitions, faults, replay. */
class SimNetworkTest {
    private static final Duration SECOND = Duration.ofSeconds(1);

    /** Three requests over one connection: listen, connect, ask, on the given network. */
    private static Job<List<Optional<String>>> threePings(Network server, Network client, String serverHost) {
        return server.listen(0).flatMap(l -> PingService.serve(l).start().flatMap(srv ->
                client.connect(serverHost, l.port()).flatMap(c ->
                        PingService.ask(c, SECOND).flatMap(a -> PingService.ask(c, SECOND).flatMap(b ->
                                PingService.ask(c, SECOND).map(d -> List.of(a, b, d))))
                                .ensure(c.close()))
                        .ensure(srv.cancel()).ensure(l.close())));
    }

    @Test
    void theSameServiceRunsOnRealSockets() {
        try (Scheduler s = Scheduler.create(2)) {
            assertThat(s.run(threePings(Network.system(), Network.system(), "127.0.0.1")))
                    .containsExactly(Optional.of("pong"), Optional.of("pong"), Optional.of("pong"));
        }
    }

    /** The host name is looked up on a virtual thread; a single-threaded scheduler takes the answer back. */
    @Test
    void aSingleThreadedSchedulerConnectsByName() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            assertThat(s.run(threePings(Network.system(), Network.system(), "localhost")))
                    .containsExactly(Optional.of("pong"), Optional.of("pong"), Optional.of("pong"));
        }
    }

    /**
     * A system connection accepted by a fiber cancelled between the accept's commit (its wrap requests the
     * cancellation) and the next step is closed: the client reads end of stream instead of waiting forever.
     */
    @Test
    void aSystemConnectionDroppedByACancelledStepIsClosed() {
        Network net = Network.system();
        try (Scheduler s = Scheduler.create(2)) {
            assertThat(s.run(readAfterADroppedAccept(net, net, "127.0.0.1"))).as("end of stream").isEqualTo(-1);
        }
    }

    /** The same in simulation: the dropped connection's close runs in a fiber of its own. */
    @Test
    void aSimulatedConnectionDroppedByACancelledStepIsClosed() {
        try (Simulation sim = Simulation.create()) {
            SimNetwork net = SimNetwork.create(sim);
            int clientRead = sim.run(readAfterADroppedAccept(net.host("server"), net.host("client"), "server"));
            assertThat(clientRead).as("end of stream").isEqualTo(-1);
        }
    }

    /**
     * A client connects to a listener whose acceptor is cancelled from its accept's wrap, then reads once:
     * -1 when the dropped connection was closed, -2 when nothing came within 10 s.
     */
    private static Job<Integer> readAfterADroppedAccept(Network server, Network client, String serverHost) {
        return server.listen(0).flatMap(l -> Job.self().flatMap(self -> l.accept().wrap(c -> {
            self.toCompletableFuture().cancel(false);
            return c;
        }).flatMap(c -> Job.<Void>unit())).start().flatMap(acceptor ->
                client.connect(serverHost, l.port()).flatMap(c -> acceptor.outcome().flatMap(o -> {
                    assertThat(o).isInstanceOf(Outcome.Cancelled.class);
                    return Alt.choose(c.read(ByteBuffer.allocate(8)), Alt.after(Duration.ofSeconds(10)).wrap(v -> -2));
                }).ensure(c.close())))
                .ensure(l.close()));
    }

    @Test
    void andInSimulationWhereEachHopTakesItsLatency() {
        try (Simulation sim = Simulation.create()) {
            SimNetwork net = SimNetwork.create(sim, Faults.NONE.withLatency(Duration.ofMillis(5), Duration.ZERO));
            assertThat(sim.run(threePings(net.host("server"), net.host("client"), "server")))
                    .containsExactly(Optional.of("pong"), Optional.of("pong"), Optional.of("pong"));
            // connect: one hop; each ask: two hops (request, reply); 5 ms each
            assertThat(sim.elapsed()).isEqualTo(Duration.ofMillis(5 + 3 * 10));
        }
    }

    @Test
    void aPartitionHoldsTrafficUntilItHealsAndTheReadersTimeoutDecides() {
        try (Simulation sim = Simulation.create()) {
            SimNetwork net = SimNetwork.create(sim);
            Network server = net.host("server");
            Network client = net.host("client");
            List<Optional<String>> answers = sim.run(server.listen(80).flatMap(l -> PingService.serve(l).start()
                    .flatMap(srv -> client.connect("server", 80).flatMap(c ->
                            Job.run(() -> net.partition("client", "server"))
                                    .then(PingService.ask(c, SECOND)) // held: times out
                                    .flatMap(first -> net.heal("client", "server")
                                            .then(readRest(c)) // the held reply arrives after the heal
                                            .map(late -> List.of(first, late)))
                                    .ensure(c.close()))
                            .ensure(srv.cancel()).ensure(l.close()))));
            assertThat(answers).containsExactly(Optional.empty(), Optional.of("pong"));
            assertThat(sim.trace().lines()).anyMatch(line -> line.endsWith("net: partition client|server"))
                    .anyMatch(line -> line.endsWith("net: heal client|server"));
        }
    }

    private static Job<Optional<String>> readRest(Connection c) {
        ByteBuffer in = ByteBuffer.allocate(4);
        return PingService.readFully(c, in).map(ok -> Optional.of(new String(in.array(),
                java.nio.charset.StandardCharsets.US_ASCII)));
    }

    @Test
    void aResetIsASocketExceptionOnBothEnds() {
        try (Simulation sim = Simulation.create()) {
            SimNetwork net = SimNetwork.create(sim, Faults.NONE.withResetChunk(1.0));
            Network server = net.host("server");
            Network client = net.host("client");
            List<Outcome<?>> outcomes = sim.run(server.listen(80).flatMap(l -> l.accept()
                    .flatMap(sc -> sc.read(ByteBuffer.allocate(4)).attempt()).start().flatMap(srv ->
                            client.connect("server", 80).flatMap(c -> PingService.ask(c, SECOND).attempt()
                                    .flatMap(o -> srv.join().map(so -> List.<Outcome<?>>of(o, so)))))));
            assertThat(outcomes).allSatisfy(o -> assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class,
                    f -> assertThat(f.error()).isInstanceOf(SocketException.class)));
            assertThat(sim.trace().lines()).anyMatch(line -> line.contains("net: reset ")
                    && line.contains("(a chunk in flight)"));
        }
    }

    @Test
    void aRefusedOrDroppedConnectionIsAConnectException() {
        try (Simulation sim = Simulation.create()) {
            SimNetwork net = SimNetwork.create(sim, Faults.NONE.withDropConnect(1.0));
            Outcome<Connection> nobody = sim.run(net.host("client").connect("server", 81).attempt());
            Outcome<Connection> dropped = sim.run(net.host("server").listen(80)
                    .then(net.host("client").connect("server", 80)).attempt());
            assertThat(List.of(nobody, dropped)).allSatisfy(o -> assertThat(o).isInstanceOfSatisfying(
                    Outcome.Failure.class, f -> assertThat(f.error()).isInstanceOf(ConnectException.class)));
            assertThat(((Outcome.Failure<?>) nobody).error()).hasMessageContaining("refused");
            assertThat(((Outcome.Failure<?>) dropped).error()).hasMessageContaining("dropped");
        }
    }

    @Test
    void aDeadlockReportNamesTheFiberBlockedOnASocket() {
        Simulation sim = Simulation.create(); // not closed: closing would report the same deadlock again
        SimNetwork net = SimNetwork.create(sim);
        // the server never accepts, so the client's read waits forever
        assertThatThrownBy(() -> sim.run(net.host("server").listen(80).flatMap(l ->
                net.host("client").connect("server", 80).flatMap(c -> c.read(ByteBuffer.allocate(1))))))
                .isInstanceOf(DeadlockException.class)
                .hasMessageContaining("waits on choose(take from BoundedMailbox[net client#0->server:80 (client end) in");
    }

    /** A small fleet of clients with latency jitter and rare resets: the scenario of the two tests below. */
    private static void fleet(Simulation sim, boolean buggy) {
        SimNetwork net = SimNetwork.create(sim, Faults.NONE
                .withLatency(Duration.ofMillis(1), Duration.ofMillis(4)).withResetChunk(0.02));
        Network server = net.host("server");
        List<String> answers = sim.run(server.listen(80).flatMap(l -> PingService.serve(l).start().flatMap(srv ->
                Job.all(List.of(client(net, "a", buggy), client(net, "b", buggy), client(net, "c", buggy)))
                        .ensure(srv.cancel()).ensure(l.close()))));
        for (String a : answers) {
            if (a.equals("pong") || a.startsWith("lost")) {
                continue;
            }
            throw new AssertionError("unexpected answer " + a);
        }
        sim.note("answers " + answers);
        if (buggy) {
            // the buggy client turns a lost reply into "pong"; the count of real replies exposes it
            int real = net.chunksDelivered("server");
            long claimed = answers.stream().filter("pong"::equals).count();
            assertThat(claimed).as("pongs claimed vs replies the server delivered").isEqualTo(real);
        }
    }

    private static Job<String> client(SimNetwork net, String host, boolean buggy) {
        Network n = net.host(host);
        return n.connect("server", 80).flatMap(c -> (buggy ? PingService.askAssumingSuccess(c)
                : PingService.ask(c, Duration.ofSeconds(10)).map(r -> r.orElse("lost (timeout)"))
                        .recover(e -> "lost (" + e.getClass().getSimpleName() + ")"))
                .ensure(c.close()));
    }

    @Test
    void explorationFindsThePlantedBugAndItsReportReplaysIt() {
        ExplorationReport report = Simulation.explore(1_000, 7, sim -> fleet(sim, true));
        assertThat(report.failed()).as("the planted bug is found within 1,000 schedules").isTrue();
        assertThat(report.failure()).hasMessageContaining("pongs claimed");
        assertThatThrownBy(() ->
                        Simulation.replay(report.replayToken(), sim -> fleet(sim, true)))
                .isInstanceOf(AssertionError.class).hasMessageContaining(report.replayToken());
    }

    @Test
    void theCorrectClientPassesTheSameExploration() {
        Simulation.check(200, 7, sim -> fleet(sim, false));
    }

    @Test
    void theSameSeedGivesAByteIdenticalTrace() {
        String[] traces = new String[2];
        for (int i = 0; i < 2; i++) {
            try (Simulation sim = Simulation.withSeed(99)) {
                fleet(sim, false);
                traces[i] = String.join("\n", sim.trace().lines());
            }
        }
        assertThat(traces[1]).isEqualTo(traces[0]).isNotEmpty();
    }

    @Test
    void theBytesOfTwoWritesAlreadyArrivedComeInOneRead() {
        try (Simulation sim = Simulation.create()) {
            SimNetwork net = SimNetwork.create(sim);
            String got = sim.run(net.host("server").listen(80).flatMap(l ->
                    net.host("client").connect("server", 80).flatMap(c -> l.accept().flatMap(s ->
                            c.writeAll(PingService.ascii("ab")).then(c.writeAll(PingService.ascii("cd")))
                                    .then(Job.sleep(SECOND))
                                    .then(Job.defer(() -> {
                                        ByteBuffer in = ByteBuffer.allocate(8);
                                        return s.read(in).map(n -> n + " " + new String(in.array(), 0, n,
                                                java.nio.charset.StandardCharsets.US_ASCII));
                                    }))
                                    .ensure(s.close()))
                            .ensure(c.close()))
                            .ensure(l.close())));
            assertThat(got).isEqualTo("4 abcd");
        }
    }

    @Test
    void aWriterWaitsWhileTheLinkAndTheReadersReceiveBufferAreFull() {
        int chunk = 64 * 1024;
        try (Simulation sim = Simulation.create()) {
            SimNetwork net = SimNetwork.create(sim);
            long[] r = sim.run(net.host("server").listen(80).flatMap(l ->
                    net.host("client").connect("server", 80).flatMap(c -> l.accept().flatMap(s -> {
                        ByteBuffer out = ByteBuffer.allocate(10 * chunk);
                        return c.writeAll(out).start().flatMap(writer -> Job.sleep(SECOND)
                                .then(Job.of(() -> (long) out.position()))
                                .flatMap(held -> PingService.readFully(s, ByteBuffer.allocate(10 * chunk))
                                        .then(writer.join()).map(v -> new long[] {held, out.position()})))
                                .ensure(s.close());
                    }).ensure(c.close())).ensure(l.close())));
            // four chunks in the receive buffer, one held by the link, the writer waiting with the sixth
            assertThat(r).containsExactly(5L * chunk, 10L * chunk);
        }
    }

    /**
     * A server that takes one read for one request: right while every write arrives whole and alone, wrong
     * once the network splits a stream where TCP may.
     */
    private static void oneReadPerRequest(Simulation sim, double split) {
        SimNetwork net = SimNetwork.create(sim, Faults.NONE.withSplit(split));
        Optional<String> answer = sim.run(net.host("server").listen(80).flatMap(l -> l.accept().flatMap(s -> {
            ByteBuffer in = ByteBuffer.allocate(4);
            return s.read(in).flatMap(n -> s.writeAll(PingService.ascii(in.hasRemaining() ? "part" : "pong")))
                    .ensure(s.close());
        }).start().flatMap(srv -> net.host("client").connect("server", 80).flatMap(c ->
                PingService.ask(c, SECOND).ensure(c.close())).ensure(srv.join())).ensure(l.close())));
        assertThat(answer).as("answer").contains("pong");
    }

    @Test
    void aSplitFaultExposesAServerThatTakesOneReadPerRequest() {
        Simulation.check(50, 3, sim -> oneReadPerRequest(sim, 0));
        ExplorationReport report = Simulation.explore(50, 3, sim -> oneReadPerRequest(sim, 0.5));
        assertThat(report.failed()).isTrue();
        assertThat(report.failure()).hasMessageContaining("part");
        assertThat(report.trace().lines()).as("the fault, in the report's trace")
                .anyMatch(line -> line.contains("net: split a ") && line.contains(" of 4 bytes"));
    }
}
