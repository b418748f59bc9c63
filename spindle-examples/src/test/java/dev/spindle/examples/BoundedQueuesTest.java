package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link BoundedQueues} on every scheduler kind, the simulator included. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class BoundedQueuesTest {

    /** Every item arrives once, in order, and the queue never held more than its capacity. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void pipelineKeepsOrderAndBound(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            BoundedQueues.Pipeline p = fixture.run(BoundedQueues.pipeline(50, 3, Duration.ofMillis(1)));
            assertThat(p.received()).isEqualTo(IntStream.range(0, 50).boxed().toList());
            assertThat(p.mostQueued()).isBetween(1, 3);
        }
    }

    /** The offer to a full queue times out and adds nothing; after a take it goes in. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void offerTimesOutWithoutEffect(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(BoundedQueues.offerToAFullQueue())).isEqualTo(List.of(false, "first", true, "second"));
        }
    }

    /** The demo prints both results. */
    @Test
    void demoPrints() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BoundedQueues.demo(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("pipeline(20, capacity 3) -> [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,")
                .contains("offerToAFullQueue()      -> [false, first, true, second]");
    }
}
