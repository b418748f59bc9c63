package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.net.TcpListener;
import dev.spindle.net.TcpStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The echo server, the bounded read and the shutdown of {@link NetworkServices}, on real loopback sockets. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class NetworkServicesTest {

    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void theSessionEchoesTwiceAndTimesOutOnce(SchedulerKind kind) throws Exception {
        try (TcpListener listener = NetworkServices.listen(); SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            assertThat(scheduler.run(NetworkServices.session(listener)))
                    .isEqualTo("hello fibers (no greeting: timed out)");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void aTimedOutReadConsumedNothing(SchedulerKind kind) throws Exception {
        try (TcpListener listener = NetworkServices.listen(); SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            InetSocketAddress address = (InetSocketAddress) listener.localAddress();
            String got = scheduler.run(TcpStream.connect(address).flatMap(client -> listener.accept().flatMap(conn -> {
                ByteBuffer buf = ByteBuffer.allocate(8);
                return NetworkServices.readWithin(conn, buf, Duration.ofMillis(20)).flatMap(first -> {
                    assertThat(first).isEqualTo(Optional.empty());
                    return client.writeAll(ByteBuffer.wrap(new byte[] {'o', 'k'}))
                            .then(NetworkServices.readWithin(conn, buf, Duration.ofSeconds(30)))
                            .map(second -> second.orElseThrow() + ":" + new String(buf.array(), 0, buf.position()));
                }).ensure(Job.run(() -> {
                    NetworkServices.closeQuietly(conn);
                    NetworkServices.closeQuietly(client);
                }));
            })));
            assertThat(got).isEqualTo("2:ok");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void theDirectStyleEchoEchoesAndClosesAtEndOfStream(SchedulerKind kind) throws Exception {
        try (TcpListener listener = NetworkServices.listen(); SchedulerFixture fixture = kind.open()) {
            InetSocketAddress address = (InetSocketAddress) listener.localAddress();
            String got = fixture.scheduler().run(listener.accept().flatMap(conn ->
                    NetworkServices.directEcho(conn).start()).start().flatMap(server ->
                    NetworkServices.ask(address, "direct").flatMap(answer -> server.join()
                            .flatMap(echoer -> echoer.join()).map(v -> answer))));
            assertThat(got).isEqualTo("direct");
        }
    }
}
