package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code map}, {@code flatMap} and {@code then} run their steps in order, pass values on, and skip steps after a failure. */
class SequencingTest {
    @RegisterExtension
    final SchedulerExtension s = new SchedulerExtension(SchedulerKind.WORKERS_2);

    private final IllegalStateException boom = new IllegalStateException("boom");
    private final AtomicInteger skipped = new AtomicInteger();

    @Test
    void mapTransformsTheValue() {
        int v = s.run(Job.result(20).map(x -> x + 22));
        assertThat(v).isEqualTo(42);
    }

    @Test
    void mapMayGiveNull() {
        Object v = s.run(Job.result(1).map(x -> null));
        assertThat(v).isNull();
    }

    @Test
    void mapSkipsItsFunctionAfterAFailure() {
        assertThat(s.outcome(Job.<Integer>failure(boom).map(x -> skipped.incrementAndGet())))
                .isEqualTo(Outcome.failure(boom));
        assertThat(skipped).hasValue(0);
    }

    @Test
    void mapTurnsAThrowingFunctionIntoAFailure() {
        assertThat(s.outcome(Job.result(1).map(x -> {
            throw boom;
        }))).isEqualTo(Outcome.failure(boom));
    }

    @Test
    void flatMapRunsTheJobMadeFromTheValue() {
        int v = s.run(Job.result(6).flatMap(x -> Job.of(() -> x * 7)));
        assertThat(v).isEqualTo(42);
    }

    @Test
    void flatMapSkipsItsFunctionAfterAFailure() {
        assertThat(s.outcome(Job.<Integer>failure(boom).flatMap(x -> Job.result(skipped.incrementAndGet()))))
                .isEqualTo(Outcome.failure(boom));
        assertThat(skipped).hasValue(0);
    }

    @Test
    void flatMapTurnsAThrowingFunctionIntoAFailure() {
        assertThat(s.outcome(Job.result(1).<Integer>flatMap(x -> {
            throw boom;
        }))).isEqualTo(Outcome.failure(boom));
    }

    @Test
    void flatMapFailsWithNullPointerExceptionWhenTheFunctionReturnsNull() {
        assertThat(s.outcome(Job.result(1).<Integer>flatMap(x -> null)))
                .isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error())
                        .isInstanceOf(NullPointerException.class).hasMessageContaining("flatMap"));
    }

    @Test
    void flatMapGivesTheFailureOfTheJobItMade() {
        assertThat(s.outcome(Job.result(1).flatMap(x -> Job.<Integer>failure(boom))))
                .isEqualTo(Outcome.failure(boom));
    }

    @Test
    void thenRunsBothInOrderAndGivesTheSecondValue() {
        List<String> order = new CopyOnWriteArrayList<>();
        Job<String> job = Job.run(() -> order.add("first")).then(Job.of(() -> {
            order.add("second");
            return "done";
        }));
        assertThat(s.run(job)).isEqualTo("done");
        assertThat(order).containsExactly("first", "second");
    }

    @Test
    void thenSkipsTheSecondJobAfterAFailure() {
        assertThat(s.outcome(Job.<Void>failure(boom).then(TestJobs.increment(skipped))))
                .isEqualTo(Outcome.failure(boom));
        assertThat(skipped).hasValue(0);
    }

    @Test
    void stepsOfAChainRunInOrder() {
        List<Integer> order = new CopyOnWriteArrayList<>();
        Job<Integer> job = Job.result(1);
        for (int i = 0; i < 1_000; i++) {
            job = job.flatMap(x -> Job.of(() -> {
                order.add(x);
                return x + 1;
            })).map(x -> x);
        }
        assertThat(s.run(job)).isEqualTo(1_001);
        assertThat(order).hasSize(1_000).isSorted();
    }

    /**
     * A step whose first job requests cancellation of the step's own fiber and then succeeds at once: the
     * step continues without a continuation object, and must still check for cancellation.
     */
    private static Job<Integer> afterCancellingOwnFiber(
            BiFunction<Job<Boolean>, Job<Integer>, Job<Integer>> step, Job<Integer> next) {
        return Job.self().flatMap(me -> step.apply(Job.of(() -> me.toCompletableFuture().cancel(true)), next));
    }

    @Test
    void flatMapAfterAJobThatSucceedsAtOnceIsStillACancellationPoint() {
        Job<Integer> victim = afterCancellingOwnFiber((first, next) -> first.flatMap(x -> next),
                Job.of(skipped::incrementAndGet));
        Outcome<Integer> outcome = s.run(victim.start().flatMap(Fiber::outcome));
        assertThat(outcome).isEqualTo(Outcome.cancelled());
        assertThat(skipped).hasValue(0);
    }

    @Test
    void thenAfterAJobThatSucceedsAtOnceIsStillACancellationPoint() {
        Job<Integer> victim = afterCancellingOwnFiber(Job::then, Job.of(skipped::incrementAndGet));
        Outcome<Integer> outcome = s.run(victim.start().flatMap(Fiber::outcome));
        assertThat(outcome).isEqualTo(Outcome.cancelled());
        assertThat(skipped).hasValue(0);
    }

    @Test
    void stepsAfterChannelOperationsThatMeetAWaitingPartnerGoOn() {
        Channel<Integer> ch = new Channel<>();
        Job<Integer> job = ch.take().map(x -> x * 2).start().flatMap(taker ->
                ch.give(21).then(taker.join()).flatMap(doubled ->
                ch.give(doubled).start().flatMap(giver ->
                ch.take().map(x -> x + 1).flatMap(v -> giver.join().map(done -> v)))));
        assertThat(s.run(job)).isEqualTo(43);
    }

    @Test
    void stepsAfterIVarOperationsThatCompleteAtOnceGoOnOrFail() {
        IVar<Integer> full = new IVar<>();
        IVar<Integer> failed = new IVar<>();
        int read = s.run(full.fill(5).then(full.read()).flatMap(x -> Job.result(x + 1)));
        assertThat(read).isEqualTo(6);
        String second = s.run(full.tryFill(7).map(filled -> filled ? "filled" : "already full"));
        assertThat(second).isEqualTo("already full");
        assertThat(s.outcome(full.fill(8).map(v -> skipped.incrementAndGet())))
                .isInstanceOf(Outcome.Failure.class)
                .extracting(o -> ((Outcome.Failure<?>) o).error()).isInstanceOf(IllegalStateException.class);
        assertThat(s.outcome(failed.fillFailure(boom).then(failed.read()).map(x -> skipped.incrementAndGet())))
                .isEqualTo(Outcome.failure(boom));
        assertThat(skipped).hasValue(0);
    }

    @Test
    void stepsAfterSendsAndTakesOfQueuedMessagesGoOnInOrder() {
        Mailbox<Integer> mailbox = new Mailbox<>();
        Channel<Integer> channel = new Channel<>();
        Job<Integer> job = mailbox.send(1).then(mailbox.send(2)).then(channel.send(3))
                .then(mailbox.take()).flatMap(a -> mailbox.take().flatMap(b ->
                channel.take().map(c -> a * 100 + b * 10 + c)));
        int taken = s.run(job);
        assertThat(taken).isEqualTo(123);
    }
}
