package dev.spindle.test.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Alt;
import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import dev.spindle.test.Simulation;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The edges of a connection's life give the same outcome on real sockets and on the simulated network, so
 * that code tested in simulation meets no surprise on the real one.
 */
class NetworkParityTest {
    /** Longer than any of these exchanges takes on loopback, and in virtual time. */
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    /** The two networks, each as a server host and a client host. */
    enum Kind {
        SYSTEM, SIMULATED;

        <A> A run(Function<Hosts, Job<A>> body) {
            if (this == SYSTEM) {
                try (Scheduler s = Scheduler.create(2)) {
                    return s.run(body.apply(new Hosts(Network.system(), Network.system(), "127.0.0.1")));
                }
            }
            try (Simulation sim = Simulation.create()) {
                SimNetwork net = SimNetwork.create(sim);
                return sim.run(body.apply(new Hosts(net.host("server"), net.host("client"), "server")));
            }
        }
    }

    /** A server host, a client host, and the name the client connects to. */
    record Hosts(Network server, Network client, String serverName) {
        /** Listens, connects, accepts; runs {@code body} with the client's and the server's end; closes all. */
        <A> Job<A> connected(Function<Connection, Function<Connection, Job<A>>> body) {
            return server.listen(0).flatMap(l -> client.connect(serverName, l.port()).flatMap(c ->
                    l.accept().flatMap(s -> body.apply(c).apply(s).ensure(s.close()))
                            .ensure(c.close()))
                    .ensure(l.close()));
        }
    }

    private static ByteBuffer bytes(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The bytes put in {@code buf} so far, as text. */
    private static String text(ByteBuffer buf) {
        return new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
    }

    /** One read into {@code buf}: its count, -1 at end of stream, or -2 when nothing came within {@link #PATIENCE}. */
    private static Job<Integer> readOnce(Connection c, ByteBuffer buf) {
        return Alt.choose(c.read(buf), Alt.after(PATIENCE).wrap(v -> -2));
    }

    private static void assertFailedWith(Outcome<?> o, Class<? extends Throwable> type) {
        assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error()).isInstanceOf(type));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aReadIntoABufferWithNoRoomGivesZeroAtOnce(Kind kind) {
        int n = kind.run(h -> h.connected(c -> s -> readOnce(s, ByteBuffer.allocate(0))));
        assertThat(n).isZero();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aReadIntoAReadOnlyBufferFailsAndConsumesNothing(Kind kind) {
        Object[] r = kind.run(h -> h.connected(c -> s -> c.writeAll(bytes("kept")).then(Job.defer(() -> {
            ByteBuffer buf = ByteBuffer.allocate(8);
            return s.read(buf.asReadOnlyBuffer()).attempt().flatMap(bad -> readOnce(s, buf).map(n ->
                    new Object[] {bad, text(buf)}));
        }))));
        assertFailedWith((Outcome<?>) r[0], IllegalArgumentException.class);
        assertThat(r[1]).isEqualTo("kept");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void readAndWriteAfterOwnCloseFailWithClosedChannelException(Kind kind) {
        Outcome<?>[] o = kind.run(h -> h.connected(c -> s ->
                // bytes have arrived, and some been read, when the reader's end closes
                c.writeAll(bytes("unread")).then(Job.sleep(Duration.ofMillis(50)))
                        .then(s.read(ByteBuffer.allocate(2))).then(s.close())
                        .then(s.read(ByteBuffer.allocate(8)).attempt())
                        .flatMap(read -> s.write(bytes("x")).attempt().map(write -> new Outcome<?>[] {read, write}))));
        assertFailedWith(o[0], ClosedChannelException.class);
        assertFailedWith(o[1], ClosedChannelException.class);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void closeWakesABlockedReaderWithClosedChannelException(Kind kind) {
        Outcome<Integer> o = kind.run(h -> h.connected(c -> s -> s.read(ByteBuffer.allocate(8)).start()
                .flatMap(reader -> Job.sleep(Duration.ofMillis(20)).then(s.close()).then(reader.outcome()))));
        assertFailedWith(o, ClosedChannelException.class);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void thePeerReadsWhatWasSentThenEndOfStream(Kind kind) {
        String got = kind.run(h -> h.connected(c -> s -> c.writeAll(bytes("bye")).then(c.close()).then(Job.defer(() -> {
            ByteBuffer buf = ByteBuffer.allocate(8);
            return readOnce(s, buf).flatMap(first -> readOnce(s, buf).map(second ->
                    text(buf) + " " + first + " " + second));
        }))));
        assertThat(got).isEqualTo("bye 3 -1");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void anAcceptAfterCloseFailsAndAConnectionLeftInTheBacklogIsReset(Kind kind) {
        Outcome<?>[] o = kind.run(h -> h.server().listen(0).flatMap(l -> h.client().connect(h.serverName(), l.port())
                .flatMap(c -> Job.sleep(Duration.ofMillis(20)).then(l.close()).then(l.accept().attempt())
                        .flatMap(accept -> readOnce(c, ByteBuffer.allocate(8)).attempt()
                                .map(read -> new Outcome<?>[] {accept, read}))
                        .ensure(c.close()))));
        assertFailedWith(o[0], ClosedChannelException.class);
        assertFailedWith(o[1], SocketException.class);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void writesToAPeerThatClosedFailSoon(Kind kind) {
        Outcome<Integer> o = kind.run(h -> h.connected(c -> s -> s.close().then(Job.sleep(Duration.ofMillis(20)))
                .then(writeUntilFailure(c, 0).attempt())));
        assertFailedWith(o, java.io.IOException.class);
    }

    /** Writes a byte every 10 ms, at most 100 times; gives the count written when none failed. */
    private static Job<Integer> writeUntilFailure(Connection c, int written) {
        return written == 100 ? Job.result(written) : c.writeAll(bytes("x"))
                .then(Job.sleep(Duration.ofMillis(10))).then(Job.defer(() -> writeUntilFailure(c, written + 1)));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void closingWithBytesUnreadResetsThePeer(Kind kind) {
        Outcome<Integer> o = kind.run(h -> h.connected(c -> s -> c.writeAll(bytes("unread"))
                .then(Job.sleep(Duration.ofMillis(20))).then(s.close())
                .then(readOnce(c, ByteBuffer.allocate(8)).attempt())));
        assertFailedWith(o, SocketException.class);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void afterShutdownOutputWritesFailAndReadsGoOn(Kind kind) {
        Object[] r = kind.run(h -> h.connected(c -> s -> c.shutdownOutput()
                .then(c.write(bytes("late")).attempt())
                .flatMap(write -> s.writeAll(bytes("still")).then(Job.defer(() -> {
                    ByteBuffer buf = ByteBuffer.allocate(8);
                    return readOnce(c, buf).map(n -> new Object[] {write,
                            text(buf)});
                })))));
        assertFailedWith((Outcome<?>) r[0], ClosedChannelException.class);
        assertThat(r[1]).isEqualTo("still");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aReadThatLosesAChooseConsumesNothing(Kind kind) {
        String got = kind.run(h -> h.connected(c -> s -> Job.defer(() -> {
            ByteBuffer lost = ByteBuffer.allocate(8);
            return Alt.choose(s.read(lost), Alt.after(Duration.ofMillis(20)).wrap(v -> -3))
                    .flatMap(first -> c.writeAll(bytes("abc")).then(Job.defer(() -> {
                        ByteBuffer buf = ByteBuffer.allocate(8);
                        return readOnce(s, buf).map(n -> first + " " + lost.position() + " "
                                + text(buf));
                    })));
        })));
        assertThat(got).isEqualTo("-3 0 abc");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void closingWithOnlyTheEndOfStreamUnreadIsAnOrdinaryClose(Kind kind) {
        String got = kind.run(h -> h.connected(c -> s -> c.writeAll(bytes("req")).then(c.shutdownOutput())
                .then(Job.defer(() -> {
                    ByteBuffer request = ByteBuffer.allocate(3);
                    // the server reads the request but not the end of stream after it, answers and closes
                    return readOnce(s, request).then(Job.sleep(Duration.ofMillis(20)))
                            .then(s.writeAll(bytes("reply"))).then(s.close());
                }))
                .then(Job.defer(() -> {
                    ByteBuffer buf = ByteBuffer.allocate(8);
                    return readOnce(c, buf).flatMap(first -> readOnce(c, buf).map(second ->
                            text(buf) + " " + second));
                }))));
        assertThat(got).isEqualTo("reply -1");
    }
}
