package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import dev.spindle.Scheduler;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Streams}: both Flow adapters, on every scheduler kind. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class StreamsTest {

    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void aChannelPublishesItsLinesInOrder(SchedulerKind kind) throws Exception {
        try (SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            assertThat(Streams.channelAsPublisher(scheduler)).containsExactly("alpha", "beta");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void aFiberSumsAJdkPublishersItems(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            Scheduler scheduler = fixture.scheduler();
            assertThat(Streams.sumFromAPublisher(scheduler)).isEqualTo(55);
        }
    }
}
