package dev.spindle;

import static dev.spindle.CommJobs.poll;
import static dev.spindle.CommJobs.repeat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Mailbox: asynchronous send, FIFO take, takes offered in a choose, cancellation. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MailboxTest {

    /** send never blocks and messages come out in the order they went in (through ring-buffer growth). */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void sendNeverBlocksAndTakeIsFifo(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Mailbox<Integer> mb = new Mailbox<>("inbox");
            s.run(repeat(1000, i -> mb.send(i)));
            List<Integer> got = new ArrayList<>();
            s.run(repeat(500, i -> mb.take().map(got::add)).then(repeat(10, i -> mb.send(1000 + i)))
                    .then(repeat(510, i -> mb.take().map(got::add))));
            for (int i = 0; i < 1010; i++) {
                assertThat(got.get(i)).isEqualTo(i);
            }
            assertThat(s.run(poll(mb.take(), -1))).isEqualTo(-1);
            assertThat(mb.toString()).contains("inbox");
        });
    }

    /** Many producers and consumers: every message is taken exactly once. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void everyMessageTakenExactlyOnce(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            int n = 2000;
            Mailbox<Integer> mb = new Mailbox<>();
            AtomicIntegerArray seen = new AtomicIntegerArray(n);
            List<Fiber<Void>> fs = new ArrayList<>();
            s.run(repeat(n, i -> {
                Job<Fiber<Void>> consumer = Alt.choose(mb.take(), Alt.after(Duration.ofHours(1)).wrap(v -> -1))
                        .map(v -> {
                            seen.incrementAndGet(v);
                            return (Void) null;
                        }).start();
                return consumer.map(fs::add).then(mb.send(i));
            }).then(Job.defer(() -> repeat(n, i -> fs.get(i).join()))));
            for (int i = 0; i < n; i++) {
                assertThat(seen.get(i)).isEqualTo(1);
            }
        });
    }

    /** A take cancelled while waiting consumes nothing. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancelledTakeConsumesNothing(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Mailbox<Integer> mb = new Mailbox<>();
            s.run(mb.take().start().flatMap(t -> Job.sleep(Duration.ofMillis(1)).then(t.cancel())));
            s.run(mb.send(9));
            assertThat(s.run(mb.take())).isEqualTo(9);
        });
    }
}
