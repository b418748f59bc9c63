package dev.spindle.net;

import static dev.spindle.net.NetFixture.close;
import static dev.spindle.net.NetFixture.fill;
import static dev.spindle.net.NetFixture.loopback;
import static dev.spindle.net.NetFixture.run;
import static dev.spindle.net.NetFixture.serve;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.ChildJvm;
import dev.spindle.StressScale;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many concurrent connections to one echo server, each exchanging numbered messages; every byte is checked
 * and counted. The default size runs client and server in this JVM. The stress size (10,000 connections of
 * 100 messages) runs the clients in a child JVM ({@link Client}, the same java and class path), so that
 * each process holds one socket per connection: with both ends here it would need twice as many file
 * descriptors, more than a common limit of 20,000. Each process checks its own limit and fails with what
 * it saw when it is too low.
 */
class TcpLoadTest {
    private static final int MESSAGE = 16;
    /**
     * Bounds a whole run at the default size: far above what it takes, so only a hang reaches it, and below
     * JUnit's default timeout, so that the run's own timeout ends it and says so.
     */
    private static final Duration BOUND = Duration.ofSeconds(100);
    /**
     * Bounds a whole run at the stress size (a million round trips, minutes on a busy two-core machine), below
     * the test's own {@code @Timeout}: the run's timeout cancels the waiting job, which stops the child JVM.
     */
    private static final Duration STRESS_BOUND = Duration.ofMinutes(9);
    /** File descriptors a JVM holds besides the sockets (jars, selectors, pipes), with a wide margin. */
    private static final int SPARE_FDS = 1_000;
    /** The line by which the child reports the bytes it checked. */
    private static final String CHECKED = "CHECKED ";

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void twoHundredConnectionsOfTwentyMessages(int workers) throws Exception {
        int connections = 200;
        int messages = 20;
        requireFileDescriptors(2 * connections);
        AtomicLong checked = new AtomicLong();
        try (TcpListener l = TcpListener.bind(loopback(), connections)) {
            serving(workers, l, clients(l.localAddress(), connections, messages, checked), BOUND);
        }
        assertThat(checked.get()).isEqualTo((long) connections * messages * MESSAGE);
    }

    @Tag("stress")
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void tenThousandConnectionsOfAHundredMessages(int workers) throws Exception {
        int connections = StressScale.of(10_000);
        int messages = 100;
        requireFileDescriptors(connections);
        long checked;
        try (TcpListener l = TcpListener.bind(loopback(), connections)) {
            InetSocketAddress at = (InetSocketAddress) l.localAddress();
            checked = serving(workers, l, Job.blocking(() -> clientProcess(at, connections, messages, workers)),
                    STRESS_BOUND);
        }
        assertThat(checked).isEqualTo((long) connections * messages * MESSAGE);
    }

    /** Runs {@code clients} on {@code workers} workers while {@code l} echoes, and gives its value. */
    private static <A> A serving(int workers, TcpListener l, Job<A> clients, Duration bound) {
        Job<A> all = serve(l, NetFixture::echo).start().flatMap(server -> clients.ensure(server.cancel()));
        return run(workers, all.timeout(bound)); // only a hang reaches the bound (TimeoutException)
    }

    /**
     * Runs {@link Client} in a child JVM against {@code at} and gives the bytes it checked; fails with its
     * output when it fails or outlives {@link #STRESS_BOUND}. The child never outlives this call.
     */
    private static long clientProcess(InetSocketAddress at, int connections, int messages, int workers)
            throws Exception {
        Path out = Files.createTempFile("tcp-load-client", ".out");
        Process p = new ProcessBuilder(ChildJvm.command(List.of(), Client.class, at.getAddress().getHostAddress(),
                Integer.toString(at.getPort()), Integer.toString(connections), Integer.toString(messages),
                Integer.toString(workers)))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            if (!p.waitFor(STRESS_BOUND.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("the client JVM did not finish within " + STRESS_BOUND + "; its output:\n"
                        + Files.readString(out));
            }
            String output = Files.readString(out);
            if (p.exitValue() != 0) {
                throw new AssertionError("the client JVM exited with " + p.exitValue() + "; its output:\n" + output);
            }
            return output.lines().filter(line -> line.startsWith(CHECKED))
                    .mapToLong(line -> Long.parseLong(line.substring(CHECKED.length()).trim()))
                    .findFirst().orElseThrow(() -> new AssertionError("no " + CHECKED + "line from the client JVM:\n"
                            + output));
        } finally {
            p.destroyForcibly().waitFor(); // a no-op once it exited; else (a hang, an interrupt) it must not linger
            Files.deleteIfExists(out);
        }
    }

    /**
     * The client side of the stress size, in a JVM of its own: {@code Client <host> <port> <connections>
     * <messages> <workers>}. Prints {@code CHECKED <bytes>} and exits 0, or fails with a message.
     */
    static final class Client {
        private Client() {
        }

        /** Runs the clients with the arguments of the class comment. */
        public static void main(String[] args) throws Exception {
            InetAddress host = InetAddress.getByName(args[0]);
            InetSocketAddress server = new InetSocketAddress(host, Integer.parseInt(args[1]));
            int connections = Integer.parseInt(args[2]);
            int messages = Integer.parseInt(args[3]);
            int workers = Integer.parseInt(args[4]);
            requireFileDescriptors(connections);
            AtomicLong checked = new AtomicLong();
            run(workers, clients(server, connections, messages, checked).timeout(STRESS_BOUND));
            System.out.println(CHECKED + checked.get());
        }
    }

    /**
     * Fails, naming the limit it saw, unless this process may open {@code sockets} more file descriptors
     * than {@link #SPARE_FDS}.
     */
    private static void requireFileDescriptors(int sockets) throws IOException {
        long needed = (long) sockets + SPARE_FDS;
        long limit = openFileLimit();
        if (limit < needed) {
            throw new AssertionError("this process may open " + limit + " files (ulimit -n), and " + sockets
                    + " sockets need about " + needed + ": raise ulimit -n");
        }
    }

    /** The soft limit on open files (Linux: /proc/self/limits), or MAX_VALUE where it cannot be read. */
    private static long openFileLimit() throws IOException {
        Path limits = Path.of("/proc/self/limits");
        if (!Files.isReadable(limits)) {
            return Long.MAX_VALUE;
        }
        for (String line : Files.readAllLines(limits)) {
            if (line.startsWith("Max open files")) {
                String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
            }
        }
        return Long.MAX_VALUE;
    }

    private static Job<Void> clients(SocketAddress server, int connections, int messages, AtomicLong checked) {
        return Job.defer(() -> {
            Job<List<Fiber<Void>>> started = Job.result(new ArrayList<>());
            for (int c = 0; c < connections; c++) {
                int id = c;
                started = started.flatMap(list -> client(server, id, messages, checked).start().map(f -> {
                    list.add(f);
                    return list;
                }));
            }
            return started.flatMap(TcpLoadTest::joinAll);
        });
    }

    private static Job<Void> joinAll(List<Fiber<Void>> fibers) {
        Job<Void> j = Job.unit();
        for (Fiber<Void> f : fibers) {
            j = j.then(f.join());
        }
        return j;
    }

    private static Job<Void> client(SocketAddress server, int id, int messages, AtomicLong checked) {
        return TcpStream.connect(server).flatMap(s ->
                round(s, id, 0, messages, checked).ensure(Job.run(() -> close(s))));
    }

    private static Job<Void> round(TcpStream s, int id, int i, int messages, AtomicLong checked) {
        if (i == messages) {
            return Job.unit();
        }
        ByteBuffer out = message(id, i);
        ByteBuffer in = ByteBuffer.allocate(MESSAGE);
        return s.writeAll(out).then(fill(s, in)).flatMap(v -> {
            in.flip();
            if (!in.equals(message(id, i))) {
                return Job.failure(new AssertionError("connection " + id + " message " + i + " came back wrong"));
            }
            checked.addAndGet(MESSAGE);
            return round(s, id, i + 1, messages, checked);
        });
    }

    /** Message {@code i} of connection {@code id}: its numbers, padded to {@link #MESSAGE} bytes. */
    private static ByteBuffer message(int id, int i) {
        ByteBuffer b = ByteBuffer.allocate(MESSAGE);
        b.putInt(id).putInt(i).putLong((long) id * 31 + i);
        return b.flip();
    }
}
