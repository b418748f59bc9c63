package dev.spindle.net;

import static dev.spindle.net.NetFixture.awaitTrue;
import static dev.spindle.net.NetFixture.loopback;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker that never runs dry still sees the network: its busy looks at the poller (every
 * {@code Worker.POLL_INTERVAL} items) are the only way a single worker kept busy by a yielding fiber learns
 * that a waiting read can go on, since it never reaches the blocking select of an idle worker.
 */
class TcpBusyPollTest {
    /** Iterations the busy fiber makes at most: far more than the poll interval, bounding a failing run. */
    private static final long MAX_SPINS = 50_000_000;

    @Timeout(60)
    @Test
    void aWorkerKeptBusyStillCompletesAWaitingRead() throws Exception {
        try (Scheduler s = Scheduler.builder().name("busy-poll").workers(1).build();
             TcpListener l = TcpListener.bind(loopback());
             SocketChannel client = SocketChannel.open(l.localAddress())) {
            AtomicBoolean reading = new AtomicBoolean();
            AtomicBoolean done = new AtomicBoolean();
            AtomicLong spins = new AtomicLong();
            CompletableFuture<Integer> read = s.submit(l.accept().flatMap(srv -> {
                ByteBuffer buf = ByteBuffer.allocate(16);
                return Job.run(() -> reading.set(true))
                        .then(srv.read(buf))
                        .ensure(Job.run(() -> done.set(true)))
                        .ensure(Job.run(() -> NetFixture.close(srv)));
            }));
            CompletableFuture<Long> busy = s.submit(NetFixture.spin(done::get, spins, MAX_SPINS));
            awaitTrue(reading::get, "the reader to start");
            // The one worker ran the reader's attempt (nothing there yet) before any later spin: it waits.
            long seen = spins.get();
            awaitTrue(() -> spins.get() >= seen + 2, "two more spins");
            client.write(ByteBuffer.wrap("hello".getBytes(StandardCharsets.US_ASCII)));

            assertThat(read.get(30, TimeUnit.SECONDS)).isEqualTo(5);
            assertThat(busy.get(30, TimeUnit.SECONDS)).as("spins until the read completed").isLessThan(MAX_SPINS);
        }
    }
}
