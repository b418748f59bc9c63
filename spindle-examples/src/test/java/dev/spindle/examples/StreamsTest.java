package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Scheduler;
import java.util.function.Supplier;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Streams}: both Flow adapters, on every scheduler kind. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class StreamsTest {

    @ParameterizedTest
    @MethodSource("dev.spindle.examples.SchedulerKinds#all")
    void aChannelPublishesItsLinesInOrder(Supplier<Scheduler> kind) throws Exception {
        try (Scheduler scheduler = kind.get()) {
            assertThat(Streams.channelAsPublisher(scheduler)).containsExactly("alpha", "beta");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.spindle.examples.SchedulerKinds#all")
    void aFiberSumsAJdkPublishersItems(Supplier<Scheduler> kind) {
        try (Scheduler scheduler = kind.get()) {
            assertThat(Streams.sumFromAPublisher(scheduler)).isEqualTo(55);
        }
    }
}
