package dev.spindle.examples;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.net.TcpListener;
import dev.spindle.net.TcpStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small HTTP/1.1 server with keep-alive: each connection is a fiber that answers every request on it
 * with "hello" until the client closes it. Enough HTTP for requests without a body.
 */
public final class HttpHello {
    private static final byte[] RESPONSE = ("HTTP/1.1 200 OK\r\n"
            + "Content-Type: text/plain\r\n"
            + "Content-Length: 5\r\n"
            + "\r\n"
            + "hello").getBytes(StandardCharsets.US_ASCII);

    private HttpHello() {
    }

    /** Accepts connections until cancelled, counting them in {@code connections}. */
    static Job<Void> server(TcpListener listener, AtomicInteger connections) {
        return listener.accept().flatMap(conn -> {
            connections.incrementAndGet();
            return serve(conn, ByteBuffer.allocate(8192)).ensure(Job.run(() -> NetworkServices.closeQuietly(conn)))
                    .start().then(server(listener, connections));
        });
    }

    /** Answers each request read into {@code in} (which holds the bytes not yet handled) until end of stream. */
    private static Job<Void> serve(TcpStream conn, ByteBuffer in) {
        int end = endOfHead(in);
        if (end >= 0) {
            // drop the request head, keep what follows (a pipelined request), answer, go on
            in.flip().position(end);
            in.compact();
            return conn.writeAll(ByteBuffer.wrap(RESPONSE)).then(serve(conn, in));
        }
        if (!in.hasRemaining()) {
            return Job.failure(new IOException("request head larger than " + in.capacity() + " bytes"));
        }
        return conn.read(in).flatMap(n -> n < 0 ? Job.unit() : serve(conn, in));
    }

    /** The index just past the first "\r\n\r\n" in {@code in}'s bytes [0, position), or -1. */
    private static int endOfHead(ByteBuffer in) {
        for (int i = 3; i < in.position(); i++) {
            if (in.get(i) == '\n' && in.get(i - 1) == '\r' && in.get(i - 2) == '\n' && in.get(i - 3) == '\r') {
                return i + 1;
            }
        }
        return -1;
    }

    /** GETs {@code uri} {@code times} times in a row with the JDK's client (one kept-alive connection). */
    static String getTimes(URI uri, int times) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        StringBuilder bodies = new StringBuilder();
        for (int i = 0; i < times; i++) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            bodies.append(r.statusCode()).append(' ').append(r.body()).append(i + 1 < times ? ", " : "");
        }
        return bodies.toString();
    }

    /**
     * Starts the server, GETs it {@code times} times from a blocking client (on a virtual thread through
     * {@link Job#blocking}), then cancels the server and its connection fibers.
     */
    static Job<String> session(TcpListener listener, int times, AtomicInteger connections) {
        InetSocketAddress a = (InetSocketAddress) listener.localAddress();
        URI uri = URI.create("http://" + a.getHostString() + ":" + a.getPort() + "/");
        return server(listener, connections).start().flatMap(server ->
                Job.blocking(() -> getTimes(uri, times)).ensure(server.cancel()));
    }

    static void demo(PrintStream out) {
        AtomicInteger connections = new AtomicInteger();
        try (TcpListener listener = NetworkServices.listen(); Scheduler scheduler = Scheduler.create()) {
            String bodies = scheduler.run(session(listener, 3, connections));
            out.println("session(listener, 3)     -> " + bodies + " over " + connections.get() + " connection(s)");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
