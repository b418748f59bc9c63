package dev.spindle.net;

import static dev.spindle.net.NetFixture.close;
import static dev.spindle.net.NetFixture.fill;
import static dev.spindle.net.NetFixture.loopback;
import static dev.spindle.net.NetFixture.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Direct;
import dev.spindle.Job;
import dev.spindle.Outcome;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A slow reader, cancelled writes, direct-style bodies and Unix-domain sockets. */
class TcpBackPressureTest {
    /** Far more than loopback socket buffers hold, so the writer must wait for the reader. */
    private static final int BIG = 16 << 20;

    @Test
    void aWriterWaitsForASlowReaderWithoutHoldingItsWorker() throws Exception {
        AtomicInteger ticks = new AtomicInteger();
        try (TcpListener l = TcpListener.bind(loopback())) {
            long received = run(1, TcpStream.connect(l.localAddress()).flatMap(c -> l.accept().flatMap(s -> {
                ByteBuffer out = ByteBuffer.allocate(BIG);
                return c.writeAll(out).start().flatMap(writer ->
                        // One worker: the ticker runs only if the waiting writer leaves the worker free.
                        ticker(ticks, 20)
                                .then(Job.of(() -> {
                                    assertThat(writer.isDone()).isFalse();
                                    assertThat(out.position()).isLessThan(BIG);
                                    return 0;
                                }))
                                .then(fill(s, ByteBuffer.allocate(BIG)))
                                .then(writer.join())
                                .map(v -> (long) out.position()));
            }).ensure(Job.run(() -> close(c)))));
            assertThat(received).isEqualTo(BIG);
            assertThat(ticks.get()).isEqualTo(20);
        }
    }

    @Test
    void aCancelledWriteAllLeavesThePositionAtTheBytesSent() throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            long[] r = run(2, TcpStream.connect(l.localAddress()).flatMap(c -> l.accept().flatMap(s -> {
                ByteBuffer out = ByteBuffer.allocate(BIG);
                return c.writeAll(out).start().flatMap(writer ->
                        Job.sleep(Duration.ofMillis(50)).then(writer.cancel()).then(writer.outcome())
                                .flatMap(o -> {
                                    assertThat(o).isInstanceOf(Outcome.Cancelled.class);
                                    int sent = out.position();
                                    return Job.of(() -> {
                                        c.shutdownOutput();
                                        return 0;
                                    }).then(drain(s, 0))
                                            .map(got -> new long[] {sent, got});
                                }));
            }).ensure(Job.run(() -> close(c)))));
            assertThat(r[0]).isPositive().isLessThan(BIG);
            assertThat(r[1]).isEqualTo(r[0]);
        }
    }

    @Test
    void directBodiesReadAndWriteWithTheBlockingForms() throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            Job<Void> server = Direct.job(() -> {
                try (TcpStream s = l.acceptBlocking()) {
                    ByteBuffer buf = ByteBuffer.allocate(64);
                    while (s.readBlocking(buf.clear()) >= 0) {
                        s.writeAllBlocking(buf.flip());
                    }
                }
                return null;
            });
            Job<String> client = Direct.job(() -> {
                try (TcpStream c = TcpStream.connectBlocking(l.localAddress())) {
                    c.writeAllBlocking(NetFixture.bytes("direct"));
                    ByteBuffer in = ByteBuffer.allocate(6);
                    while (in.hasRemaining()) {
                        c.readBlocking(in);
                    }
                    return new String(in.array(), java.nio.charset.StandardCharsets.UTF_8);
                }
            });
            // One worker: both bodies wait on sockets, so neither may hold the worker while it waits.
            String got = run(1, server.start().flatMap(sf -> client.flatMap(v -> sf.join().map(x -> v))));
            assertThat(got).isEqualTo("direct");
        }
    }

    @Test
    void unixDomainSocketsGoThroughTheSameApi() throws Exception {
        Path dir = Files.createTempDirectory("spindle-net");
        UnixDomainSocketAddress address = UnixDomainSocketAddress.of(dir.resolve("echo.sock"));
        try (TcpListener l = TcpListener.bind(address)) {
            String got = run(2, NetFixture.serve(l, NetFixture::echo).start().flatMap(server ->
                    TcpStream.connect(address).flatMap(c -> c.writeAll(NetFixture.bytes("unix"))
                            .then(NetFixture.readExactly(c, 4)).ensure(Job.run(() -> close(c))))
                            .ensure(server.cancel())));
            assertThat(got).isEqualTo("unix");
        } finally {
            Files.deleteIfExists(dir.resolve("echo.sock"));
            Files.delete(dir);
        }
    }

    private static Job<Void> ticker(AtomicInteger ticks, int n) {
        return n == 0 ? Job.unit()
                : Job.sleep(Duration.ofMillis(1)).then(Job.run(ticks::incrementAndGet)).then(ticker(ticks, n - 1));
    }

    private static Job<Long> drain(TcpStream s, long total) {
        ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        return s.read(buf).flatMap(n -> n < 0 ? Job.result(total) : drain(s, total + n));
    }
}
