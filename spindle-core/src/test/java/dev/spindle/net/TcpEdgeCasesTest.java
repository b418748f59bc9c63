package dev.spindle.net;

import static dev.spindle.net.NetFixture.assertFailedWith;
import static dev.spindle.net.NetFixture.awaitOneWaiting;
import static dev.spindle.net.NetFixture.bytes;
import static dev.spindle.net.NetFixture.close;
import static dev.spindle.net.NetFixture.connected;
import static dev.spindle.net.NetFixture.loopback;
import static dev.spindle.net.NetFixture.readExactly;
import static dev.spindle.net.NetFixture.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Alt;
import dev.spindle.FiberSnapshot;
import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Edges of the socket API: empty buffers, closed sockets, bad buffers, a writer woken by close. */
class TcpEdgeCasesTest {
    /** Far more than loopback socket buffers hold, so the writer must wait for the reader. */
    private static final int BIG = 16 << 20;

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aReadIntoAFullBufferGivesZeroAtOnceEvenAfterADrainingRead(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            int[] n = run(workers, connected(l, (c, s) ->
                    // The first read takes fewer bytes than it had room for: the socket is drained.
                    c.writeAll(bytes("ab")).then(s.read(ByteBuffer.allocate(8)))
                            .flatMap(first -> s.read(ByteBuffer.allocate(0)).map(empty -> new int[] {first, empty}))));
            assertThat(n).containsExactly(2, 0);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void closeWakesABlockedWriterWithClosedChannelException(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            Outcome<Void> o = run(workers, connected(l, (c, s) -> c.writeAll(ByteBuffer.allocate(BIG)).start()
                    .flatMap(writer -> Job.sleep(Duration.ofMillis(50)).then(Job.run(() -> close(c)))
                            .then(writer.outcome()))));
            assertFailedWith(o, ClosedChannelException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void closeWakesABlockedAcceptorWithClosedChannelException(int workers) throws Exception {
        TcpListener l = TcpListener.bind(loopback());
        Outcome<TcpStream> o = run(workers, l.accept().start().flatMap(acceptor ->
                Job.sleep(Duration.ofMillis(20)).then(Job.run(() -> close(l))).then(acceptor.outcome())));
        assertFailedWith(o, ClosedChannelException.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void operationsOnAClosedStreamFailWithClosedChannelException(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            Outcome<?>[] o = run(workers, connected(l, (c, s) ->
                    Job.run(() -> close(c)).then(c.read(ByteBuffer.allocate(4)).attempt()).flatMap(read ->
                            c.write(bytes("x")).attempt().map(write -> new Outcome<?>[] {read, write}))));
            for (Outcome<?> each : o) {
                assertFailedWith(each, ClosedChannelException.class);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aReadIntoAReadOnlyBufferFailsAndConsumesNothing(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            Object[] r = run(workers, connected(l, (c, s) ->
                    c.writeAll(bytes("kept")).then(s.read(ByteBuffer.allocate(8).asReadOnlyBuffer()).attempt())
                            .flatMap(bad -> readExactly(s, 4).map(good -> new Object[] {bad, good}))));
            assertFailedWith((Outcome<?>) r[0], IllegalArgumentException.class);
            assertThat(r[1]).isEqualTo("kept");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void twoReadersOfOneStreamShareItsBytes(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            int total = run(workers, connected(l, (c, s) ->
                    s.read(ByteBuffer.allocate(3)).start().flatMap(a -> s.read(ByteBuffer.allocate(3)).start()
                            .flatMap(b -> Job.sleep(Duration.ofMillis(20)).then(c.writeAll(bytes("abc")))
                                    .then(Job.sleep(Duration.ofMillis(20))).then(c.writeAll(bytes("def")))
                                    .then(a.join()).flatMap(na -> b.join().map(nb -> na + nb))))));
            assertThat(total).isBetween(2, 6);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aStreamWorksOverIpv6Loopback(int workers) throws Exception {
        InetSocketAddress v6 = new InetSocketAddress(InetAddress.getByName("::1"), 0);
        TcpListener l;
        try {
            l = TcpListener.bind(v6);
        } catch (IOException e) {
            org.junit.jupiter.api.Assumptions.abort("no IPv6 loopback here: " + e);
            return;
        }
        try (l) {
            String got = run(workers, connected(l, (c, s) -> c.writeAll(bytes("six")).then(readExactly(s, 3))));
            assertThat(got).isEqualTo("six");
        }
    }

    @Test
    void aConnectionGivenBackAfterCloseIsClosed() throws Exception {
        TcpListener l = TcpListener.bind(loopback());
        try (SocketChannel peer = SocketChannel.open(l.localAddress())) {
            TcpStream s = l.acceptNow();
            assertThat(s).isNotNull();
            assertThat(peer.isConnected()).isTrue();
            l.close();
            l.unaccept(s); // a losing accept's undo that ran after the close
            assertThat(s.isClosed()).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aListenerAndItsStreamsOutliveTheSchedulerThatFirstWaitedOnThem(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            // The first scheduler waits on the listener (so its poller registers it), then closes.
            TcpStream none = run(workers, Alt.choose(l.accept(), Alt.after(Duration.ofMillis(20)).wrap(v -> null)));
            assertThat(none).isNull();
            String got = run(workers, l.accept().start().flatMap(acceptor ->
                    Job.sleep(Duration.ofMillis(20)).then(TcpStream.connect(l.localAddress())).flatMap(c ->
                            acceptor.join().flatMap(s -> s.read(ByteBuffer.allocate(8)).start().flatMap(reader ->
                                    Job.sleep(Duration.ofMillis(20)).then(c.writeAll(bytes("later")))
                                            .then(reader.join()).map(n -> "read " + n))
                                    .ensure(Job.run(() -> { close(s); close(c); }))))));
            assertThat(got).isEqualTo("read 5");
        }
    }

    @Test
    void fibersOfTwoOpenSchedulersCannotWaitOnOneSocketAtOnce() throws Exception {
        try (TcpListener l = TcpListener.bind(loopback());
                Scheduler a = Scheduler.builder().name("net-a").workers(1).build();
                Scheduler b = Scheduler.builder().name("net-b").workers(1).build()) {
            CompletableFuture<TcpStream> waiting = a.submit(l.accept());
            awaitOneWaiting(l.port(), "the acceptor of a to wait");
            Outcome<TcpStream> refused = b.run(l.accept().attempt());
            assertFailedWith(refused, IllegalStateException.class);
            assertThat(((Outcome.Failure<?>) refused).error()).hasMessageContaining("one scheduler at a time");
            try (SocketChannel peer = SocketChannel.open(l.localAddress())) {
                TcpStream s = waiting.get(30, TimeUnit.SECONDS); // a's acceptor was not disturbed
                assertThat(peer.isConnected()).isTrue();
                // Nobody waits through a's poller now: b may wait on the listener.
                String got = b.run(connected(l, (c, t) -> c.writeAll(bytes("b")).then(readExactly(t, 1))));
                assertThat(got).isEqualTo("b");
                s.close();
            }
        }
    }

    @Test
    void aDumpNamesTheFiberWaitingOnASocketAndBothEndsOfIt() throws Exception {
        TcpListener l = TcpListener.bind(loopback());
        try (l; Scheduler s = Scheduler.builder().name("net-dump").workers(1).build()) {
            String port = ":" + ((InetSocketAddress) l.localAddress()).getPort();
            CompletableFuture<TcpStream> acceptor = s.submit(l.accept().named("acceptor"));
            awaitOneWaiting(l.port(), "the acceptor to wait");
            assertThat(s.dump().named("acceptor").get(0).blockedOn()).startsWith("accept TcpListener(/127.0.0.1")
                    .endsWith(port + ")");
            try (SocketChannel peer = SocketChannel.open(l.localAddress())) {
                TcpStream accepted = acceptor.get(30, TimeUnit.SECONDS);
                String peerPort = ":" + ((InetSocketAddress) peer.getLocalAddress()).getPort();
                CompletableFuture<Integer> reader = s.submit(accepted.read(ByteBuffer.allocate(1)).named("reader"));
                awaitOneWaiting(accepted.port(), "the reader to wait");
                assertThat(s.dump().named("reader").get(0).blockedOn()).startsWith("read TcpStream(/127.0.0.1")
                        .contains(port + " -> /127.0.0.1" + peerPort + ")");
                accepted.close();
                assertThat(accepted).hasToString("TcpStream(closed)");
                assertThat(reader).failsWithin(30, TimeUnit.SECONDS);
            }
        }
        assertThat(l.toString()).endsWith(", closed)");
    }
}
