package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Channels, choose with a timeout, nacks, IVars, mailboxes and promises of {@link Messaging} on real schedulers. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class MessagingTest {

    /** Two gives meet two takes: 20 + 22. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void channelCarriesBothNumbers(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            for (int i = 0; i < 100; i++) {
                assertThat(fixture.run(Messaging.channelSum())).isEqualTo(42);
            }
        }
    }

    /**
     * The first choose takes the message, the second times out; the hour-long timer of the first is gone,
     * or close() would wait for it.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void takeThenTimeout(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Messaging.takeTwice())).containsExactly("got hello", "timed out");
        }
    }

    /** A patient client gets the answer, and the server sees its give committed. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void patientClientIsAnswered(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Messaging.askWithPatience(Duration.ZERO, Duration.ofHours(1))))
                    .isEqualTo("answer to q / answered");
        }
    }

    /** An impatient client times out, and its nack tells the server to drop the answer. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void impatientClientNacks(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Messaging.askWithPatience(Duration.ofMillis(50), Duration.ofMillis(5))))
                    .isEqualTo("timed out / client gave up, answer dropped");
        }
    }

    /** Both waiting readers see the one fill; the second fill is refused. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void ivarIsFilledOnce(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Messaging.fillOnce()))
                    .containsExactly("hello, ada", "hello, ada", "refilled: false");
        }
    }

    /** The actor receives every message in order and stops at the 0. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void mailboxDeliversEveryMessage(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            for (int i = 0; i < 100; i++) {
                assertThat(fixture.run(Messaging.mailboxSum())).isEqualTo(6);
            }
        }
    }

    /** Three readers, one load. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void memoRunsTheLoadOnce(SchedulerKind kind) {
        AtomicInteger loads = new AtomicInteger();
        try (SchedulerFixture fixture = kind.open()) {
            List<String> configs = fixture.run(Messaging.sharedLoad(loads));
            assertThat(configs).containsExactly("config #1", "config #1", "config #1");
        }
        assertThat(loads).hasValue(1);
    }
}
