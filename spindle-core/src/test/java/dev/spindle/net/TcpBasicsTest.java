package dev.spindle.net;

import static dev.spindle.net.NetFixture.bytes;
import static dev.spindle.net.NetFixture.close;
import static dev.spindle.net.NetFixture.echo;
import static dev.spindle.net.NetFixture.loopback;
import static dev.spindle.net.NetFixture.readExactly;
import static dev.spindle.net.NetFixture.run;
import static dev.spindle.net.NetFixture.serve;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Alt;
import dev.spindle.Job;
import dev.spindle.Outcome;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Real loopback sockets: echo, timeouts with choose, cancellation, close, reset and refusal. */
class TcpBasicsTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void anEchoServerEchoes(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            String got = run(workers, serve(l, NetFixture::echo).start().flatMap(server ->
                    TcpStream.connect(l.localAddress()).flatMap(c ->
                            c.writeAll(bytes("hello")).then(readExactly(c, 5))
                                    .ensure(Job.run(() -> close(c))))
                            .ensure(server.cancel())));
            assertThat(got).isEqualTo("hello");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aReadThatLosesAChooseConsumesNothing(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            String got = run(workers, TcpStream.connect(l.localAddress()).flatMap(c ->
                    l.accept().flatMap(s -> {
                        ByteBuffer lost = ByteBuffer.allocate(16);
                        // The timeout wins while nothing is there; then the peer writes; the next read gets all.
                        Job<Object> timedOut = Alt.<Object>choose(s.read(lost), Alt.after(Duration.ofMillis(20)));
                        return timedOut.flatMap(first -> {
                            assertThat(first).isNull();
                            assertThat(lost.position()).isZero();
                            return c.writeAll(bytes("abc")).then(readExactly(s, 3))
                                    .ensure(Job.run(() -> { close(s); close(c); }));
                        });
                    })));
            assertThat(got).isEqualTo("abc");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aReadyReadThatLosesToAnEarlierAlternativeGivesItsBytesBack(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            String got = run(workers, TcpStream.connect(l.localAddress()).flatMap(c ->
                    l.accept().flatMap(s -> c.writeAll(bytes("xyz")).then(Job.sleep(Duration.ofMillis(20)))
                            .then(Alt.<Object>choose(Alt.always("first"), s.read(ByteBuffer.allocate(8))))
                            .flatMap(won -> {
                                assertThat(won).isEqualTo("first");
                                return readExactly(s, 3);
                            })
                            .ensure(Job.run(() -> { close(s); close(c); })))));
            assertThat(got).isEqualTo("xyz");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aCancelledReaderConsumesNothingAndTheSocketStaysUsable(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            String got = run(workers, TcpStream.connect(l.localAddress()).flatMap(c ->
                    l.accept().flatMap(s -> s.read(ByteBuffer.allocate(8)).start().flatMap(reader ->
                            Job.sleep(Duration.ofMillis(20)).then(reader.cancel()).then(reader.outcome())
                                    .flatMap(o -> {
                                        assertThat(o).isInstanceOf(Outcome.Cancelled.class);
                                        return c.writeAll(bytes("still")).then(readExactly(s, 5));
                                    }))
                            .ensure(Job.run(() -> { close(s); close(c); })))));
            assertThat(got).isEqualTo("still");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aCancelledAcceptorTakesNoConnection(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            String got = run(workers, l.accept().start().flatMap(acceptor ->
                    Job.sleep(Duration.ofMillis(20)).then(acceptor.cancel()).then(acceptor.outcome())
                            .flatMap(o -> {
                                assertThat(o).isInstanceOf(Outcome.Cancelled.class);
                                return TcpStream.connect(l.localAddress()).flatMap(c -> l.accept().flatMap(s ->
                                        c.writeAll(bytes("ok")).then(readExactly(s, 2))
                                                .ensure(Job.run(() -> { close(s); close(c); }))));
                            })));
            assertThat(got).isEqualTo("ok");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void closeWakesABlockedReaderWithClosedChannelException(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            Outcome<Integer> o = run(workers, TcpStream.connect(l.localAddress()).flatMap(c ->
                    l.accept().flatMap(s -> s.read(ByteBuffer.allocate(8)).start().flatMap(reader ->
                            Job.sleep(Duration.ofMillis(20)).then(Job.run(() -> close(s))).then(reader.outcome()))
                            .ensure(Job.run(() -> close(c))))));
            assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class, f ->
                    assertThat(f.error()).isInstanceOf(ClosedChannelException.class));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aPeerResetIsASocketException(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            Outcome<Integer> o = run(workers, TcpStream.connect(l.localAddress()).flatMap(c ->
                    l.accept().flatMap(s -> s.read(ByteBuffer.allocate(8)).start().flatMap(reader ->
                            Job.sleep(Duration.ofMillis(20))
                                    .then(Job.of(() -> {
                                        c.setOption(StandardSocketOptions.SO_LINGER, 0); // close sends RST
                                        c.close();
                                        return 0;
                                    }))
                                    .then(reader.outcome()))
                            .ensure(Job.run(() -> close(s))))));
            assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class, f ->
                    assertThat(f.error()).isInstanceOf(SocketException.class));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aRefusedConnectionIsAConnectException(int workers) throws Exception {
        InetSocketAddress unused;
        try (TcpListener l = TcpListener.bind(loopback())) {
            unused = (InetSocketAddress) l.localAddress();
        }
        Outcome<TcpStream> o = run(workers, TcpStream.connect(unused).attempt());
        assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class, f ->
                assertThat(f.error()).isInstanceOf(ConnectException.class));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void endOfStreamReadsAsMinusOne(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            int n = run(workers, TcpStream.connect(l.localAddress()).flatMap(c -> l.accept().flatMap(s ->
                    Job.of(() -> { c.shutdownOutput(); return 0; }).then(s.read(ByteBuffer.allocate(4)))
                            .ensure(Job.run(() -> { close(s); close(c); })))));
            assertThat(n).isEqualTo(-1);
        }
    }
}
