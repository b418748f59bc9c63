package dev.spindle.net;

import static dev.spindle.net.NetFixture.close;
import static dev.spindle.net.NetFixture.loopback;
import static dev.spindle.net.NetFixture.readExactly;
import static dev.spindle.net.NetFixture.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Fiber;
import dev.spindle.Job;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What an operation that lost its commit gives back (a connection, bytes) is not in the socket any more,
 * so no select reports it: a fiber already waiting on that listener or stream must be woken for it.
 */
class TcpGivenBackTest {
    /** How long the waiting fiber may take; it never gets what was given back if nobody wakes it. */
    private static final Duration WITHIN = Duration.ofSeconds(10);

    @Test
    void aConnectionGivenBackReachesAnAcceptorAlreadyWaiting() throws Exception {
        try (TcpListener l = TcpListener.bind(loopback()); TcpListener other = TcpListener.bind(loopback())) {
            boolean same = run(1, l.accept().start().flatMap(waiting -> Job.yieldNow() // it registers first
                    .then(TcpStream.connect(other.localAddress())).flatMap(client -> other.accept().flatMap(given ->
                            Job.run(() -> l.unaccept(given)).then(joinWithin(waiting)).map(got -> got == given)
                                    .ensure(Job.run(() -> {
                                        close(given);
                                        close(client);
                                    }))))));
            assertThat(same).as("the waiting acceptor got the connection given back").isTrue();
        }
    }

    @Test
    void bytesGivenBackReachAReaderAlreadyWaiting() throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            String read = run(1, TcpStream.connect(l.localAddress()).flatMap(client -> l.accept().flatMap(server ->
                    readExactly(server, 3).start().flatMap(reader -> Job.yieldNow() // it waits first
                            .then(Job.run(() -> {
                                ByteBuffer taken = ByteBuffer.wrap("abc".getBytes(StandardCharsets.UTF_8));
                                server.unread(taken.position(3), 3);
                            }))
                            .then(joinWithin(reader)))
                            .ensure(Job.run(() -> {
                                close(server);
                                close(client);
                            })))));
            assertThat(read).isEqualTo("abc");
        }
    }

    /** Joins {@code f}, cancelling it if it has not ended within {@link #WITHIN}. */
    private static <A> Job<A> joinWithin(Fiber<A> f) {
        return f.join().timeout(WITHIN).recoverWith(e -> f.cancel().then(Job.failure(e)));
    }
}
