package dev.spindle.bench.echo;

import dev.spindle.Direct;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.net.TcpListener;
import dev.spindle.net.TcpStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;

/**
 * An echo server: {@code EchoServer <impl> <port> <workers>} with impl {@code spindle}, {@code spindle-direct},
 * {@code vt} or {@code netty}. Prints {@code LISTENING <port>} once it accepts, then serves until killed.
 */
public final class EchoServer {
    private EchoServer() {
    }

    /** Serves with the implementation named by {@code args[0]} on port {@code args[1]} (0: any free one). */
    public static void main(String[] args) throws Exception {
        String impl = args[0];
        int port = Integer.parseInt(args[1]);
        int workers = Integer.parseInt(args[2]);
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        switch (impl) {
            case "spindle" -> spindle(address, workers, false);
            case "spindle-direct" -> spindle(address, workers, true);
            case "vt" -> vt(address);
            case "netty" -> NettyEcho.serve(address, workers);
            default -> throw new IllegalArgumentException("unknown server " + impl);
        }
    }

    static void listening(int port) {
        System.out.println("LISTENING " + port);
        System.out.flush();
    }

    // ---------------------------------------------------------------- Spindle

    private static void spindle(InetSocketAddress address, int workers, boolean direct) throws IOException {
        try (Scheduler scheduler = Scheduler.create(workers); TcpListener listener = TcpListener.bind(address)) {
            listening(((InetSocketAddress) listener.localAddress()).getPort());
            scheduler.run(direct ? acceptDirect(listener) : accept(listener));
        }
    }

    private static Job<Void> accept(TcpListener listener) {
        return listener.accept().flatMap(conn -> {
            noDelay(conn);
            ByteBuffer buf = ByteBuffer.allocateDirect(4096);
            return echo(conn, buf).ensure(Job.run(() -> closeQuietly(conn))).forget();
        }).then(Job.defer(() -> accept(listener)));
    }

    private static Job<Void> echo(TcpStream conn, ByteBuffer buf) {
        return conn.read(buf.clear()).flatMap(n -> n < 0
                ? Job.unit()
                : conn.writeAll(buf.flip()).then(Job.defer(() -> echo(conn, buf))));
    }

    private static Job<Void> acceptDirect(TcpListener listener) {
        return Direct.job(() -> {
            for (;;) {
                TcpStream conn = listener.acceptBlocking();
                noDelay(conn);
                Direct.await(Direct.<Void>job(() -> {
                    try (conn) {
                        ByteBuffer buf = ByteBuffer.allocateDirect(4096);
                        while (conn.readBlocking(buf.clear()) >= 0) {
                            conn.writeAllBlocking(buf.flip());
                        }
                    } catch (IOException ignored) {
                        // the client went away
                    }
                    return null;
                }).forget());
            }
        });
    }

    private static void noDelay(TcpStream conn) {
        try {
            conn.setOption(StandardSocketOptions.TCP_NODELAY, true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // not a TCP socket
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // best effort
        }
    }

    // ---------------------------------------------------------------- virtual threads

    private static void vt(InetSocketAddress address) throws IOException {
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(address, 1024);
            listening(server.getLocalPort());
            for (;;) {
                Socket s = server.accept();
                Thread.ofVirtual().start(() -> {
                    try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                        s.setTcpNoDelay(true);
                        byte[] buf = new byte[4096];
                        for (int n; (n = in.read(buf)) >= 0; ) {
                            out.write(buf, 0, n);
                        }
                    } catch (IOException ignored) {
                        // the client went away
                    }
                });
            }
        }
    }
}
