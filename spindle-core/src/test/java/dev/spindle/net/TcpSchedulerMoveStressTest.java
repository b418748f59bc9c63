package dev.spindle.net;

import static dev.spindle.net.NetFixture.loopback;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Scheduler;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One stream read by two open schedulers in turn, each read a {@code run} of its own, while a plain thread
 * writes a known byte sequence in small pieces; every {@link #GENERATION} reads one of the two schedulers is
 * closed and replaced by a new one. The socket's registration moves between pollers thousands of times,
 * with the one left behind selecting, idle, busy or closed, and some reads find their bytes already there
 * while others wait. Every byte must arrive once, in order, each read must go on on a worker of the
 * scheduler that ran it, and no read may hang. (A read that must wait for a socket a closed scheduler had
 * registered is {@code TcpEdgeCasesTest}'s; here the writer keeps bytes coming.)
 */
class TcpSchedulerMoveStressTest {
    private static final int TOTAL = 1_000_000;
    /** Reads between the replacements of a scheduler. */
    private static final int GENERATION = 50;

    @Test
    @Timeout(120)
    void readsAlternatingBetweenSchedulersGetEveryByteInOrder() throws Exception {
        AtomicReference<Throwable> writerFailed = new AtomicReference<>();
        Scheduler[] schedulers = {scheduler(0), scheduler(1)};
        try (TcpListener l = TcpListener.bind(loopback());
                SocketChannel client = SocketChannel.open(l.localAddress())) {
            TcpStream server = schedulers[0].run(l.accept());
            Thread writer = Thread.ofPlatform().name("move-writer").start(() -> write(client, writerFailed));
            ByteBuffer buf = ByteBuffer.allocate(64);
            long received = 0;
            int created = 2;
            for (int round = 0; received < TOTAL; round++) {
                if (round > 0 && round % GENERATION == 0) {
                    int replaced = (round / GENERATION) % 2;
                    schedulers[replaced].close();
                    schedulers[replaced] = scheduler(created++);
                }
                Scheduler s = schedulers[round % 2];
                String[] ranOn = new String[1];
                int n = s.run(server.read(buf.clear()).map(k -> {
                    ranOn[0] = Thread.currentThread().getName();
                    return k;
                }));
                assertThat(n).as("read %d, after %d bytes", round, received).isPositive();
                assertThat(ranOn[0]).as("the thread that went on after read %d", round).startsWith(s.name() + "-");
                for (int i = 0; i < n; i++) {
                    assertThat(buf.get(i)).as("byte %d", received + i).isEqualTo(byteAt(received + i));
                }
                received += n;
            }
            writer.join();
            assertThat(writerFailed.get()).isNull();
            server.close();
        } finally {
            for (Scheduler s : schedulers) {
                s.close();
            }
        }
    }

    private static Scheduler scheduler(int generation) {
        return Scheduler.builder().name("move" + generation).workers(2).build();
    }

    private static byte byteAt(long i) {
        return (byte) (i % 251);
    }

    /** Writes the sequence in pieces of 1 to 97 bytes, now and then pausing so that reads wait. */
    private static void write(SocketChannel client, AtomicReference<Throwable> failed) {
        try {
            long sent = 0;
            while (sent < TOTAL) {
                int n = (int) Math.min(1 + sent % 97, TOTAL - sent);
                ByteBuffer piece = ByteBuffer.allocate(n);
                for (int i = 0; i < n; i++) {
                    piece.put(byteAt(sent + i));
                }
                piece.flip();
                while (piece.hasRemaining()) {
                    client.write(piece);
                }
                sent += n;
                if (sent % 7 == 0) {
                    Thread.sleep(0, 200_000);
                }
            }
        } catch (Throwable e) {
            failed.set(e);
        }
    }
}
