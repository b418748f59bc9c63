package dev.spindle.net;

import static dev.spindle.net.NetFixture.close;
import static dev.spindle.net.NetFixture.loopback;
import static dev.spindle.net.NetFixture.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Alt;
import dev.spindle.Channel;
import dev.spindle.Job;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A reader that chooses between a read and a channel take, reusing one buffer, while a writer trickles a
 * known byte sequence and another fiber gives on the channel: the take keeps winning against reads whose
 * readiness arrived on the other worker at the same moment. Every byte must arrive once, in order: a read
 * that lost must not touch the buffer after the chooser has moved on (it did, and the stream went out of
 * order within a few hundred thousand bytes, until a waiting read held its pick while it read).
 */
class TcpLosingReadStressTest {
    /** Bytes sent; the unfixed runtime went out of order after 8,850 to 228,055 bytes in four runs. */
    private static final long TOTAL = 1_000_000;
    /** What the reader's choose gives when the take won. */
    private static final int POKED = -5;

    @Test
    @Timeout(60)
    void readsThatLoseToATakeGiveBackEveryByteInOrder() throws Exception {
        try (TcpListener l = TcpListener.bind(loopback())) {
            Channel<Integer> poke = new Channel<>("poke");
            AtomicBoolean done = new AtomicBoolean();
            String result = run(2, TcpStream.connect(l.localAddress()).flatMap(client ->
                    l.accept().flatMap(server -> write(client, 0).start()
                            .then(poke(poke, done).start())
                            .then(read(server, ByteBuffer.allocate(64), poke, 0, done))
                            .ensure(Job.run(() -> {
                                done.set(true);
                                close(server);
                                close(client);
                            })))));
            assertThat(result).isEqualTo("all " + TOTAL + " bytes in order");
        }
    }

    private static byte byteAt(long i) {
        return (byte) (i % 251);
    }

    /** Writes the sequence in writes of 1 to 13 bytes, yielding after each. */
    private static Job<Void> write(TcpStream c, long sent) {
        if (sent >= TOTAL) {
            return Job.unit();
        }
        int n = (int) Math.min(1 + sent % 13, TOTAL - sent);
        ByteBuffer b = ByteBuffer.allocate(n);
        for (int i = 0; i < n; i++) {
            b.put(byteAt(sent + i));
        }
        return c.writeAll(b.flip()).then(Job.yieldNow()).then(Job.defer(() -> write(c, sent + n)));
    }

    /** Gives on {@code poke} until the reader is done, a millisecond at most per give. */
    private static Job<Void> poke(Channel<Integer> poke, AtomicBoolean done) {
        if (done.get()) {
            return Job.unit();
        }
        return Alt.choose(poke.give(1), Alt.after(Duration.ofMillis(1))).then(Job.defer(() -> poke(poke, done)));
    }

    private static Job<String> read(TcpStream s, ByteBuffer buf, Channel<Integer> poke, long got,
            AtomicBoolean done) {
        if (got >= TOTAL) {
            return Job.result(got == TOTAL ? "all " + TOTAL + " bytes in order" : got + " bytes of " + TOTAL);
        }
        return Alt.choose(s.read(buf.clear()), poke.take().wrap(v -> POKED)).flatMap(n -> {
            if (n == POKED) {
                return read(s, buf, poke, got, done);
            }
            if (n < 0) {
                return Job.result("end of stream after " + got + " bytes");
            }
            for (int i = 0; i < n; i++) {
                if (buf.get(i) != byteAt(got + i)) {
                    return Job.result("byte " + (got + i) + " out of order");
                }
            }
            return read(s, buf, poke, got + n, done);
        });
    }
}
