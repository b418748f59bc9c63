package dev.spindle.examples;

import dev.spindle.Alt;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.net.TcpListener;
import dev.spindle.net.TcpStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * Network services: an echo server where each connection is a fiber, a read bounded with {@code choose},
 * and a clean shutdown by cancelling the server's fiber (its connection fibers are its children).
 */
public final class NetworkServices {
    private NetworkServices() {
    }

    /** Accepts connections until cancelled; each one is echoed by a child fiber of its own. */
    static Job<Void> echoServer(TcpListener listener) {
        return listener.accept().flatMap(conn -> echo(conn).start().then(echoServer(listener)));
    }

    /** Echoes what {@code conn} sends until end of stream, then closes it (also when cancelled). */
    static Job<Void> echo(TcpStream conn) {
        ByteBuffer buf = ByteBuffer.allocate(4096);
        return echoLoop(conn, buf).ensure(Job.run(() -> closeQuietly(conn)));
    }

    private static Job<Void> echoLoop(TcpStream conn, ByteBuffer buf) {
        return conn.read(buf.clear()).flatMap(n -> n < 0
                ? Job.unit()
                : conn.writeAll(buf.flip()).then(echoLoop(conn, buf)));
    }

    /**
     * The same echo as a direct-style body: plain loops and try-with-resources, with the blocking forms of the
     * socket calls, which suspend this fiber and never its worker.
     */
    static Job<Void> directEcho(TcpStream conn) {
        return Job.direct(() -> {
            try (conn) {
                ByteBuffer buf = ByteBuffer.allocate(4096);
                while (conn.readBlocking(buf.clear()) >= 0) {
                    conn.writeAllBlocking(buf.flip());
                }
            }
            return null;
        });
    }

    /** A read that gives up after {@code timeout}: empty then, and nothing was consumed. */
    static Job<Optional<Integer>> readWithin(TcpStream conn, ByteBuffer buf, Duration timeout) {
        return Alt.choose(conn.read(buf).map(Optional::of),
                Alt.after(timeout).map(v -> Optional.<Integer>empty()));
    }

    /**
     * Sends {@code text} to the server at {@code address} and gives what comes back. The connection is
     * closed however the exchange ends, also when the fiber is cancelled just as the connect commits.
     */
    static Job<String> ask(InetSocketAddress address, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return Job.bracket(TcpStream.connect(address),
                conn -> conn.writeAll(ByteBuffer.wrap(bytes))
                        .then(readFully(conn, ByteBuffer.allocate(bytes.length))),
                conn -> Job.run(() -> closeQuietly(conn)));
    }

    private static Job<String> readFully(TcpStream conn, ByteBuffer buf) {
        if (!buf.hasRemaining()) {
            return Job.result(new String(buf.array(), StandardCharsets.UTF_8));
        }
        return conn.read(buf).flatMap(n -> n < 0
                ? Job.failure(new IOException("the server closed the connection early"))
                : readFully(conn, buf));
    }

    /**
     * Starts the echo server, asks it twice, waits in vain for a greeting the server never sends (the
     * timeout wins), then cancels the server: every connection fiber is cancelled with it.
     */
    static Job<String> session(TcpListener listener) {
        InetSocketAddress address = (InetSocketAddress) listener.localAddress();
        return echoServer(listener).start().flatMap(server ->
                ask(address, "hello").flatMap(a -> ask(address, "fibers").flatMap(b ->
                        TcpStream.connect(address).flatMap(idle ->
                                readWithin(idle, ByteBuffer.allocate(16), Duration.ofMillis(50))
                                        .ensure(Job.run(() -> closeQuietly(idle))))
                                .map(greeting -> a + " " + b + " " + greeting.map(n -> "greeted")
                                        .orElse("(no greeting: timed out)"))))
                        .ensure(server.cancel()));
    }

    /** A loopback listener on a free port. */
    static TcpListener listen() throws IOException {
        return TcpListener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // closing is best effort here
        }
    }

    static void demo(PrintStream out) {
        try (TcpListener listener = listen(); Scheduler scheduler = Scheduler.create()) {
            out.println("session(listener)        -> " + scheduler.run(session(listener)));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
