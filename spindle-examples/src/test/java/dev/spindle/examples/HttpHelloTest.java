package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import dev.spindle.Scheduler;
import dev.spindle.net.TcpListener;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link HttpHello} answers the JDK's HTTP client, keeping one connection alive for many requests. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class HttpHelloTest {

    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void tenRequestsInARowShareOneConnection(SchedulerKind kind) throws Exception {
        AtomicInteger connections = new AtomicInteger();
        try (TcpListener listener = NetworkServices.listen(); SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            String bodies = scheduler.run(HttpHello.session(listener, 10, connections));
            assertThat(bodies).isEqualTo(String.join(", ", java.util.Collections.nCopies(10, "200 hello")));
        }
        assertThat(connections.get()).isEqualTo(1);
    }
}
