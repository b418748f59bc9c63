package dev.spindle.net;

import static dev.spindle.net.NetFixture.close;
import static dev.spindle.net.NetFixture.fill;
import static dev.spindle.net.NetFixture.loopback;
import static dev.spindle.net.NetFixture.run;
import static dev.spindle.net.NetFixture.serve;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.StressScale;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many concurrent connections to one echo server, each exchanging numbered messages; every byte is checked
 * and counted. The stress size (10,000 connections of 100 messages) needs two file descriptors per
 * connection in this one JVM: {@code ulimit -n} of at least 21,000 (the test fails with that message when
 * the limit is lower).
 */
class TcpLoadTest {
    private static final int MESSAGE = 16;
    /** Bounds a whole run: far above what it takes, so only a hang reaches it. */
    private static final Duration BOUND = Duration.ofMinutes(3);

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void twoHundredConnectionsOfTwentyMessages(int workers) throws Exception {
        exchange(workers, 200, 20);
    }

    @Tag("stress")
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void tenThousandConnectionsOfAHundredMessages(int workers) throws Exception {
        exchange(workers, StressScale.of(10_000), 100);
    }

    private static void exchange(int workers, int connections, int messages) throws Exception {
        long needed = 2L * connections + 1_000;
        long limit = openFileLimit();
        assertThat(limit).as("file descriptors for %d connections: raise ulimit -n", connections)
                .isGreaterThanOrEqualTo(needed);
        AtomicLong checked = new AtomicLong();
        try (TcpListener l = TcpListener.bind(loopback(), connections)) {
            Job<Void> all = serve(l, NetFixture::echo).start().flatMap(server ->
                    clients(l, connections, messages, checked).ensure(server.cancel()));
            run(workers, all.timeout(BOUND)); // only a hang reaches the bound (TimeoutException)
        }
        assertThat(checked.get()).isEqualTo((long) connections * messages * MESSAGE);
    }

    /** The soft limit on open files (Linux: /proc/self/limits), or MAX_VALUE where it cannot be read. */
    private static long openFileLimit() throws java.io.IOException {
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

    private static Job<Void> clients(TcpListener l, int connections, int messages, AtomicLong checked) {
        return Job.defer(() -> {
            Job<List<Fiber<Void>>> started = Job.result(new ArrayList<>());
            for (int c = 0; c < connections; c++) {
                int id = c;
                started = started.flatMap(list -> client(l, id, messages, checked).start().map(f -> {
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

    private static Job<Void> client(TcpListener l, int id, int messages, AtomicLong checked) {
        return TcpStream.connect(l.localAddress()).flatMap(s ->
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
