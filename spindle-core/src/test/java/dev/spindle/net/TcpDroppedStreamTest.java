package dev.spindle.net;

import static dev.spindle.TestJobs.cancelledAtCommit;
import static dev.spindle.net.NetFixture.bytes;
import static dev.spindle.net.NetFixture.close;
import static dev.spindle.net.NetFixture.loopback;
import static dev.spindle.net.NetFixture.readExactly;
import static dev.spindle.net.NetFixture.readOrTimeout;
import static dev.spindle.net.NetFixture.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Alt;
import dev.spindle.Channel;
import dev.spindle.Either;
import dev.spindle.IVar;
import dev.spindle.Job;
import dev.spindle.Outcome;
import java.net.SocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Who closes a stream that the runtime drops on its way to user code. A new stream (no operation called on
 * it yet) that a combinator does not give (a race's loser that connected anyway, the rest of a failed
 * all), or that a cancelled step drops, is closed; a stream that code has used is never closed by a step
 * that drops it, since others may still hold it.
 */
class TcpDroppedStreamTest {
    @ParameterizedTest
    @ValueSource(strings = {"race", "any", "all"})
    void theConnectionAChildMadeIsClosedWhenTheCombinatorDoesNotGiveIt(String combinator) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            IVar<Void> connected = new IVar<>("connected");
            Channel<Void> go = new Channel<>("go");
            // The loser waits for "go" after connecting; the decider hands it over and ends first (one worker,
            // so the loser's resumed take runs after the decider's last step), which cancels the loser past
            // its last cancellation point: it ends with the stream, which the combinator does not give.
            Job<TcpStream> loser = TcpStream.connect(l.localAddress())
                    .flatMap(s -> connected.fill(null).then(go.take().wrap(v -> s)));
            Job<TcpStream> decider = connected.read().then(go.give(null)).then(Job.result(null));
            IllegalStateException planted = new IllegalStateException("planted");
            Job<?> combined = switch (combinator) {
                case "race" -> Job.race(loser, decider);
                case "any" -> Job.any(List.of(loser, decider));
                default -> Job.all(List.of(loser, decider.then(Job.<TcpStream>failure(planted))));
            };
            Outcome<?> o = run(1, combined.attempt());
            assertThat(o).isEqualTo(switch (combinator) {
                case "race" -> Outcome.success(new Either.Right<>(null));
                case "any" -> Outcome.success(null);
                default -> Outcome.failure(planted);
            });
            assertThat(serverEndRead(l)).as("the server end of the connection the loser made").isEqualTo(-1);
        }
    }

    /**
     * The combinator's value reaches a parent that its winning child cancels just before finishing: the
     * parent's next step drops the value (an {@code Either} or a list holding the stream), and the stream
     * must be closed.
     */
    @ParameterizedTest
    @ValueSource(strings = {"race", "all"})
    void aStreamGivenToACancelledParentIsClosed(String combinator) throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            SocketAddress address = l.localAddress();
            Job<Boolean> parent = Job.self().flatMap(self -> {
                Job<TcpStream> child = TcpStream.connect(address).flatMap(s -> Job.of(() -> {
                    self.toCompletableFuture().cancel(false); // cancels this child too, which ends anyway
                    return s;
                }));
                Job<?> given = combinator.equals("race") ? Job.race(child, Alt.<Void>never()) : Job.all(List.of(child));
                return given.flatMap(v -> Job.result(true));
            });
            Outcome<Boolean> o = run(2, parent.start().flatMap(f -> f.outcome()));
            assertThat(o).as("the parent, cancelled as the combinator gave its value").isEqualTo(Outcome.cancelled());
            assertThat(serverEndRead(l)).as("the server end of the dropped stream").isEqualTo(-1);
        }
    }

    /** An uncancelable region that ends with a cancellation pending drops its value: a new stream is closed. */
    @Test
    void aStreamAnUncancelableRegionGivesToACancelledFiberIsClosed() throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            SocketAddress address = l.localAddress();
            Job<Void> connector = Job.uncancelable(cancelledAtCommit(TcpStream.connect(address)))
                    .flatMap(s -> Job.run(() -> {
                        throw new AssertionError("the step of a cancelled fiber ran");
                    }));
            Outcome<Void> o = run(2, connector.start().flatMap(f -> f.outcome()));
            assertThat(o).isEqualTo(Outcome.cancelled());
            assertThat(serverEndRead(l)).as("the server end of the dropped stream").isEqualTo(-1);
        }
    }

    /**
     * A stream already in use that reaches a step of a cancelled fiber (looked up from shared state, say)
     * is dropped by that step but stays open: whoever else holds it goes on using it.
     */
    @Test
    void aStreamInUseDroppedByACancelledStepStaysOpen() throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            Job<String> body = TcpStream.connect(l.localAddress()).flatMap(client -> l.accept().flatMap(server -> {
                Job<Void> lookup = Job.self().flatMap(self -> Job.of(() -> {
                    self.toCompletableFuture().cancel(false);
                    return client;
                })).flatMap(c -> Job.run(() -> {
                    throw new AssertionError("the step of a cancelled fiber ran");
                }));
                return Job.of(client::localAddress) // in use from here on
                        .then(lookup.start()).flatMap(f -> f.outcome()).flatMap(o -> {
                            assertThat(o).isEqualTo(Outcome.cancelled());
                            return client.writeAll(bytes("still open")).then(readExactly(server, 10));
                        }).ensure(Job.run(() -> {
                            close(client);
                            close(server);
                        }));
            }));
            String echoed = run(2, body);
            assertThat(echoed).isEqualTo("still open");
        }
    }

    /** What the server end of the listener's next connection reads first. */
    private static int serverEndRead(TcpListener l) {
        return run(2, l.accept().flatMap(s -> readOrTimeout(s).ensure(Job.run(() -> close(s)))));
    }
}
