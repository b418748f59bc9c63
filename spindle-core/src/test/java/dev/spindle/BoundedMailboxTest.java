package dev.spindle;

import static dev.spindle.CommJobs.poll;
import static dev.spindle.CommJobs.repeat;
import static dev.spindle.CommJobs.until;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * BoundedMailbox: capacity, FIFO, senders waiting while full, sends and takes in a choose, and that a send
 * or take losing a choose or cancelled while it waits has no effect. (In simulation: the examples' test.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BoundedMailboxTest {
    private static final Duration HOUR = Duration.ofHours(1);

    /** A capacity below one is refused; the capacity is what was given; null messages pass. */
    @Test
    void capacityAtLeastOne() {
        assertThatThrownBy(() -> new BoundedMailbox<>(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("BoundedMailbox capacity must be at least 1, was 0");
        assertThatThrownBy(() -> new BoundedMailbox<>(-3)).isInstanceOf(IllegalArgumentException.class);
        BoundedMailbox<String> mb = new BoundedMailbox<>(3, "q");
        assertThat(mb.capacity()).isEqualTo(3);
        assertThat(mb).hasToString("BoundedMailbox[q, 0/3 messages]");
        assertThat(LincheckSupport.run(mb.send(null).then(mb.send("a")).then(mb.take()))).isNull();
        assertThat(mb).hasToString("BoundedMailbox[q, 1/3 messages]");
    }

    /** Sends up to the capacity complete at once; one more waits until a take frees a place; FIFO. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void sendWaitsWhileFullAndTakeIsFifo(SchedulerKind kind) {
        try (SchedulerFixture f = kind.open()) {
            BoundedMailbox<Integer> mb = new BoundedMailbox<>(3, "q");
            f.run(repeat(3, i -> mb.send(i)));
            assertThat(mb.size()).isEqualTo(3);
            assertThat(f.run(poll(mb.send(99).wrap(v -> "sent"), "full"))).isEqualTo("full");
            List<Integer> got = new ArrayList<>();
            f.run(mb.send(3).start().flatMap(sender -> until(() -> mb.waitingSenders() == 1, "a waiting sender")
                    .then(repeat(4, i -> mb.take().map(got::add))).then(sender.join())));
            assertThat(got).containsExactly(0, 1, 2, 3);
            assertThat(mb.size()).isZero();
            assertThat(f.run(poll(mb.take(), -1))).isEqualTo(-1);
        }
    }

    /** Waiting senders enter the buffer in arrival order, ahead of a sender that comes later. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void waitingSendersKeepTheirOrder(SchedulerKind kind) {
        try (SchedulerFixture f = kind.open()) {
            BoundedMailbox<Integer> mb = new BoundedMailbox<>(1);
            f.run(mb.send(0));
            List<Fiber<Void>> senders = new ArrayList<>();
            for (int i = 1; i <= 3; i++) {
                int waiting = i;
                senders.add(f.run(mb.send(i).start()));
                f.run(until(() -> mb.waitingSenders() == waiting, waiting + " waiting senders"));
            }
            assertThat(f.run(mb.take())).isEqualTo(0); // 1 moves into the buffer
            senders.add(f.run(mb.send(4).start()));
            f.run(until(() -> mb.waitingSenders() == 3, "the late sender waiting"));
            List<Integer> got = new ArrayList<>();
            f.run(repeat(4, i -> mb.take().map(got::add)));
            for (Fiber<Void> s : senders) {
                f.run(s.join());
            }
            assertThat(got).containsExactly(1, 2, 3, 4);
        }
    }

    /**
     * Four producers and four consumers through a mailbox of two places, half of them as plain jobs and half
     * in a choose with a timeout that never fires: every message is taken exactly once.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void everyMessageTakenExactlyOnce(SchedulerKind kind) {
        try (SchedulerFixture f = kind.open()) {
            int perFiber = 500;
            int fibers = 4;
            BoundedMailbox<Integer> mb = new BoundedMailbox<>(2);
            AtomicIntegerArray seen = new AtomicIntegerArray(perFiber * fibers);
            List<Fiber<Void>> all = new ArrayList<>();
            for (int p = 0; p < fibers; p++) {
                int base = p * perFiber;
                boolean inChoose = p % 2 == 1;
                all.add(f.run(repeat(perFiber, i -> inChoose
                        ? Alt.choose(mb.send(base + i), Alt.after(HOUR))
                        : mb.send(base + i)).start()));
                all.add(f.run(repeat(perFiber, i -> (inChoose
                        ? Alt.choose(mb.take(), Alt.after(HOUR).wrap(v -> -1))
                        : mb.take()).map(seen::incrementAndGet)).start()));
            }
            for (Fiber<Void> fb : all) {
                f.run(fb.join());
            }
            for (int i = 0; i < perFiber * fibers; i++) {
                assertThat(seen.get(i)).as("message %d", i).isEqualTo(1);
            }
            assertThat(mb.size()).isZero();
        }
    }

    /** A take that waited and lost its choose takes nothing: the next send goes to the buffer. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void takeLosingAChooseTakesNothing(SchedulerKind kind) {
        try (SchedulerFixture f = kind.open()) {
            BoundedMailbox<Integer> mb = new BoundedMailbox<>(2);
            assertThat(f.run(poll(mb.take(), -1))).isEqualTo(-1);
            assertThat(f.run(Alt.choose(mb.take(), Alt.after(Duration.ofMillis(5)).wrap(v -> -2)))).isEqualTo(-2);
            f.run(mb.send(7));
            assertThat(mb.size()).isEqualTo(1);
            assertThat(f.run(mb.take())).isEqualTo(7);
        }
    }

    /** A send that waited and lost its choose adds nothing: a take frees a place that stays free. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void sendLosingAChooseAddsNothing(SchedulerKind kind) {
        try (SchedulerFixture f = kind.open()) {
            BoundedMailbox<Integer> mb = new BoundedMailbox<>(1);
            f.run(mb.send(1));
            assertThat(f.run(poll(mb.send(2).wrap(v -> "sent"), "full"))).isEqualTo("full");
            boolean sent = f.run(Alt.choose(mb.send(3).wrap(v -> true), Alt.after(Duration.ofMillis(5)).wrap(v -> false)));
            assertThat(sent).isFalse();
            assertThat(f.run(mb.take())).isEqualTo(1);
            assertThat(mb.size()).isZero();
            assertThat(f.run(poll(mb.take(), -1))).isEqualTo(-1);
        }
    }

    /**
     * A send and a take of the same mailbox in one choose never meet each other: when empty, the take waits
     * and the send commits into the buffer; when full, the send waits and the take commits, with no refill
     * from its own choose's send.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void sendAndTakeInOneChoose(SchedulerKind kind) {
        try (SchedulerFixture f = kind.open()) {
            BoundedMailbox<Integer> mb = new BoundedMailbox<>(1);
            String first = f.run(Alt.choose(mb.take().wrap(v -> "took " + v), mb.send(5).wrap(v -> "sent")));
            assertThat(first).isEqualTo("sent");
            assertThat(mb.size()).isEqualTo(1);
            String second = f.run(Alt.choose(mb.send(6).wrap(v -> "sent"), mb.take().wrap(v -> "took " + v)));
            assertThat(second).isEqualTo("took 5");
            assertThat(mb.size()).isZero();
            assertThat(mb.waitingSenders()).isZero();
            assertThat(mb.waitingTakers()).isZero();
        }
    }

    /** Plain and choose sends and takes cancelled while they wait have no effect. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#realThreads")
    void cancelledSendAndTakeHaveNoEffect(SchedulerKind kind) {
        try (SchedulerFixture f = kind.open()) {
            BoundedMailbox<Integer> mb = new BoundedMailbox<>(1);
            for (Job<Integer> take : List.of(mb.take(), Alt.choose(mb.take(), Alt.after(HOUR).wrap(v -> -1)))) {
                f.run(take.start().flatMap(t -> until(() -> mb.waitingTakers() == 1, "a waiting take")
                        .then(t.cancel())));
                assertThat(mb.waitingTakers()).isZero();
                f.run(mb.send(9));
                assertThat(f.run(mb.take())).isEqualTo(9);
            }
            f.run(mb.send(1));
            for (Job<Void> send : List.of(mb.send(2), Alt.choose(mb.send(3), Alt.after(HOUR)))) {
                f.run(send.start().flatMap(s -> until(() -> mb.waitingSenders() == 1, "a waiting send")
                        .then(s.cancel())));
                assertThat(mb.waitingSenders()).isZero();
            }
            assertThat(f.run(mb.take())).isEqualTo(1);
            assertThat(f.run(poll(mb.take(), -1))).isEqualTo(-1);
        }
    }
}
