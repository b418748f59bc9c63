package dev.spindle.net;

import static dev.spindle.net.NetFixture.bytes;
import static dev.spindle.net.NetFixture.close;
import static dev.spindle.net.NetFixture.loopback;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No busy polling: bytes left unread in a socket that nobody reads any more keep no idle worker selecting.
 * The selector is level-triggered, so a poller that kept the socket's read interest would return from every
 * select at once; the count of idle polls (each one a park in the metrics) shows it.
 */
class TcpIdlePollTest {
    /** How long the scheduler stays idle with the unread bytes. */
    private static final Duration IDLE = Duration.ofMillis(300);
    /** Idle polls allowed in that time: a few, where a spinning poller makes thousands. */
    private static final long MAX_IDLE_POLLS = 50;

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void bytesNobodyReadsKeepNoWorkerPolling(int workers) throws Exception {
        try (Scheduler s = Scheduler.builder().name("idle-poll-" + workers).workers(workers).build();
             TcpListener l = TcpListener.bind(loopback())) {
            long polls = s.run(TcpStream.connect(l.localAddress()).flatMap(c -> l.accept().flatMap(srv -> {
                ByteBuffer one = ByteBuffer.allocate(1);
                // The read waits for readiness first (nothing is there yet), so the poller hands its waiter out.
                return srv.read(one).start().flatMap(reader -> c.writeAll(bytes("0123456789")).then(reader.join()))
                        .flatMap(n -> {
                            assertThat(n).isEqualTo(1);
                            long before = s.metrics().parks();
                            return Job.sleep(IDLE).map(v -> s.metrics().parks() - before);
                        })
                        .ensure(Job.run(() -> { close(srv); close(c); }));
            })));
            assertThat(polls).as("idle polls in %s with 9 bytes unread", IDLE).isLessThanOrEqualTo(MAX_IDLE_POLLS);
        }
    }
}
