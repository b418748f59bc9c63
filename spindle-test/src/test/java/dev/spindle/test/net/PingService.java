package dev.spindle.test.net;

import dev.spindle.Alt;
import dev.spindle.Job;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * The code under test of the network tests: it takes a {@link Network} and runs unchanged on the real one
 * and on a simulated one. A server answers each 4-byte request "ping" with "pong" on the same connection;
 * the client asks and waits for the answer within a timeout.
 */
final class PingService {
    private PingService() {
    }

    /** Serves {@code listener} until cancelled: a child fiber per connection. */
    static Job<Void> serve(Listener listener) {
        return listener.accept().flatMap(c -> answer(c).ensure(c.close()).attempt().start()
                .then(serve(listener)));
    }

    private static Job<Void> answer(Connection c) {
        ByteBuffer in = ByteBuffer.allocate(4);
        return readFully(c, in).flatMap(ok -> ok
                ? c.writeAll(ascii("pong")).then(Job.defer(() -> answer(c)))
                : Job.unit());
    }

    /** Asks once: the answer, or empty when none came within {@code timeout}. */
    static Job<Optional<String>> ask(Connection c, Duration timeout) {
        ByteBuffer in = ByteBuffer.allocate(4);
        return c.writeAll(ascii("ping")).then(Alt.choose(
                readFully(c, in).map(ok -> ok ? Optional.of(new String(in.array(), StandardCharsets.US_ASCII))
                        : Optional.<String>empty()),
                Alt.after(timeout).map(v -> Optional.<String>empty())));
    }

    /**
     * The planted bug: a client that, when the connection is reset between its request and the reply,
     * takes the request as answered ("pong") instead of reporting the loss.
     */
    static Job<String> askAssumingSuccess(Connection c) {
        return ask(c, Duration.ofSeconds(10)).map(r -> r.orElse("timeout"))
                .recover(e -> e instanceof SocketException ? "pong" : "error: " + e);
    }

    /** Reads until {@code in} is full: true, or false at end of stream before that. */
    static Alt<Boolean> readFully(Connection c, ByteBuffer in) {
        return c.read(in).afterJob(n -> n < 0 ? Job.result(false)
                : in.hasRemaining() ? readFully(c, in) : Job.result(true));
    }

    static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }

}
