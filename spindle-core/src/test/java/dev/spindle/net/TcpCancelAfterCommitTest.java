package dev.spindle.net;

import static dev.spindle.TestJobs.cancelledAtCommit;
import static dev.spindle.net.NetFixture.close;
import static dev.spindle.net.NetFixture.loopback;
import static dev.spindle.net.NetFixture.readOrTimeout;
import static dev.spindle.net.NetFixture.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Alt;
import dev.spindle.Either;
import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.Outcome;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A connection that an accept or a connect committed to, in a fiber cancelled before the next step runs,
 * is closed rather than leaked: the step ends cancelled without calling its function, and nobody else
 * holds the stream. The cancellation is requested from the alternative's {@code wrap}, which runs as the
 * wait commits, so the window between commit and step is hit every time. Likewise a connect cancelled
 * between opening its socket and its first attempt closes that socket, and a bracket releases a
 * connection the program has mapped to a type of its own.
 */
class TcpCancelAfterCommitTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void anAcceptedConnectionDroppedByACancelledStepIsClosed(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            AtomicBoolean stepRan = new AtomicBoolean();
            int peerRead = run(workers, cancelledAfterCommit(l.accept(), stepRan).flatMap(acceptor ->
                    TcpStream.connect(l.localAddress()).flatMap(client ->
                            expectCancelled(acceptor).then(readOrTimeout(client))
                                    .ensure(Job.run(() -> close(client))))));
            assertThat(stepRan).as("the step after the accept").isFalse();
            assertThat(peerRead).as("the client's read: end of stream").isEqualTo(-1);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aConnectedStreamDroppedByACancelledStepIsClosed(int workers) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            SocketAddress address = l.localAddress();
            AtomicBoolean stepRan = new AtomicBoolean();
            int peerRead = run(workers, cancelledAfterCommit(TcpStream.connect(address), stepRan)
                    .flatMap(connector -> expectCancelled(connector).then(l.accept()).flatMap(server ->
                            readOrTimeout(server).ensure(Job.run(() -> close(server))))));
            assertThat(stepRan).as("the step after the connect").isFalse();
            assertThat(peerRead).as("the server side's read: end of stream").isEqualTo(-1);
        }
    }

    /**
     * A connection mapped to the program's own type is no longer the runtime's to close when a cancelled
     * step drops it; {@code Job.bracket} releases it instead, cancelled in the same window.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aBracketReleasesAnAcceptedConnectionMappedToAnotherType(int workers) throws Exception {
        record Session(TcpStream stream) {
        }
        try (TcpListener l = TcpListener.bind(loopback())) {
            AtomicBoolean used = new AtomicBoolean();
            Job<Void> acceptor = Job.bracket(cancelledAtCommit(l.accept().wrap(Session::new)),
                    session -> Job.run(() -> used.set(true)), session -> Job.run(() -> close(session.stream())));
            int peerRead = run(workers, acceptor.start().flatMap(a -> TcpStream.connect(l.localAddress())
                    .flatMap(client -> expectCancelled(a).then(readOrTimeout(client))
                            .ensure(Job.run(() -> close(client))))));
            assertThat(used).as("the bracket's use").isFalse();
            assertThat(peerRead).as("the client's read: end of stream").isEqualTo(-1);
        }
    }

    /**
     * A connect whose fiber is cancelled before its first step: the guard opens the socket and starts the
     * connection, then the operation sees the cancellation and must close that socket. The listener either
     * never gets the connection or reads end of stream (or a reset) on it, never a connection left open.
     */
    @Test
    void aConnectCancelledBeforeItsFirstAttemptClosesItsSocket() throws Exception {
        int workers = 1; // with two, the connect may run on one while the other child ends on the other
        try (TcpListener l = TcpListener.bind(loopback())) {
            // the other child runs first (a worker stack is LIFO) and cancels the connect before its first step
            Either<TcpStream, Void> raced = run(workers, Job.race(TcpStream.connect(l.localAddress()), Job.unit()));
            assertThat(raced).isEqualTo(new Either.Right<>(null));
            int serverRead = run(workers, Alt.choose(l.accept(), Alt.after(Duration.ofMillis(500))
                    .wrap(v -> (TcpStream) null)).flatMap(s -> s == null ? Job.result(-1)
                    : readOrTimeout(s).recover(e -> -1).ensure(Job.run(() -> close(s)))));
            assertThat(serverRead).as("what the listener's side of an abandoned connect reads").isEqualTo(-1);
        }
    }

    /**
     * Starts a fiber that waits for {@code stream}, whose wrap cancels that very fiber as the wait commits;
     * the step after it records that it ran.
     */
    private static Job<Fiber<Void>> cancelledAfterCommit(Alt<TcpStream> stream, AtomicBoolean stepRan) {
        return cancelledAtCommit(stream).flatMap(s -> Job.run(() -> stepRan.set(true))).start();
    }

    private static Job<Void> expectCancelled(Fiber<Void> f) {
        return f.outcome().map(o -> {
            assertThat(o).isInstanceOf(Outcome.Cancelled.class);
            return null;
        });
    }
}
