package dev.spindle.net;

import static dev.spindle.net.NetFixture.awaitTrue;
import static dev.spindle.net.NetFixture.loopback;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.internal.run.Worker;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Readiness runs in the order the sockets became ready: a burst found by one look (or by several) is not
 * reordered on its way to the workers, so a connection ready early is never overtaken by later ones.
 */
class TcpReadinessOrderTest {
    private static final int READERS = 6;
    /** Iterations the busy fiber makes at most: far more than the poll interval, bounding a failing run. */
    private static final long MAX_SPINS = 50_000_000;
    /**
     * Spins that include a busy worker's look at the poller: each spin runs at least one item, and a busy
     * worker looks once per {@link Worker#POLL_INTERVAL} items.
     */
    private static final long LOOK_APART_SPINS = 3L * Worker.POLL_INTERVAL;

    @Timeout(60)
    @Test
    void waitingReadsCompleteInTheOrderTheirDataArrived() throws Exception {
        try (Scheduler s = Scheduler.builder().name("readiness-order").workers(1).build();
             TcpListener l = TcpListener.bind(loopback())) {
            List<SocketChannel> clients = new ArrayList<>();
            ConcurrentLinkedQueue<Integer> completed = new ConcurrentLinkedQueue<>();
            AtomicInteger waiting = new AtomicInteger();
            AtomicLong spins = new AtomicLong();
            try {
                for (int i = 0; i < READERS; i++) {
                    clients.add(SocketChannel.open(l.localAddress()));
                }
                // The readers start in connection order, then the spinner: on the one worker every reader has
                // tried its read (nothing there yet) and registered before the spinner's later spins.
                s.run(startReaders(l, 0, completed, waiting));
                BooleanSupplier allRead = () -> completed.size() == READERS;
                CompletableFuture<Long> busy = s.submit(NetFixture.spin(allRead, spins, MAX_SPINS));
                awaitTrue(() -> waiting.get() == READERS, "the readers to start");
                // The selector applies registrations at its next select, in registration order, and a socket
                // that has data by then is reported in that order: let a busy look apply them first.
                long seen = spins.get();
                awaitTrue(() -> spins.get() >= seen + LOOK_APART_SPINS, "a busy look after the registrations");
                for (int i = READERS - 1; i >= 0; i--) { // data arrives in the reverse of connection order
                    clients.get(i).write(ByteBuffer.wrap(new byte[] {(byte) i}));
                }

                assertThat(busy.get(30, TimeUnit.SECONDS)).as("spins until all reads completed").isLessThan(MAX_SPINS);
                assertThat(completed).containsExactly(5, 4, 3, 2, 1, 0);
            } finally {
                for (SocketChannel c : clients) {
                    c.close();
                }
            }
        }
    }

    /** Accepts the next connection and starts reader {@code i} on it as a detached fiber, then the next. */
    private static Job<Void> startReaders(TcpListener l, int i, ConcurrentLinkedQueue<Integer> completed,
            AtomicInteger waiting) {
        if (i == READERS) {
            return Job.unit();
        }
        return l.accept().flatMap(srv -> {
            ByteBuffer buf = ByteBuffer.allocate(1);
            Job<Void> reader = Job.run(waiting::incrementAndGet)
                    .then(srv.read(buf))
                    .then(Job.run(() -> completed.add((int) buf.get(0))))
                    .ensure(Job.run(() -> NetFixture.close(srv)));
            return reader.startDetached().then(startReaders(l, i + 1, completed, waiting));
        });
    }
}
