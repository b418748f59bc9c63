package dev.spindle;

import static dev.spindle.CommJobs.poll;
import static dev.spindle.CommJobs.repeat;
import static dev.spindle.CommJobs.until;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Channels: rendezvous, FIFO service, asynchronous send, cancellation of waiting givers and takers. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ChannelTest {

    /** Every give meets exactly one take: 1,000 givers and 1,000 takers, every value received exactly once. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void everyGiveMeetsExactlyOneTake(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            int n = 1000;
            Channel<Integer> ch = new Channel<>("exactly-once");
            AtomicIntegerArray received = new AtomicIntegerArray(n);
            List<Fiber<?>> fibers = new ArrayList<>();
            Job<Void> all = repeat(n, i -> {
                Job<Fiber<Void>> giver = ch.give(i).start();
                Job<Fiber<Void>> taker = ch.take().map(v -> {
                    received.incrementAndGet(v);
                    return (Void) null;
                }).start();
                // interleave the order of starting so both sides sometimes wait
                return (i % 2 == 0 ? giver.flatMap(g -> taker.map(t -> fibers.add(g) && fibers.add(t)))
                        : taker.flatMap(t -> giver.map(g -> fibers.add(g) && fibers.add(t))));
            }).then(Job.defer(() -> repeat(fibers.size(), i -> fibers.get(i).join())));
            s.run(all);
            for (int i = 0; i < n; i++) {
                assertThat(received.get(i)).as("times value %d was received", i).isEqualTo(1);
            }
            assertThat(ch.waitingGivers()).isZero();
            assertThat(ch.waitingTakers()).isZero();
        });
    }

    /** A give completes only when a take has taken its value, and vice versa (synchronous). */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void giveWaitsForATaker(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Channel<String> ch = new Channel<>("sync");
            String r = s.run(ch.give("x").start().flatMap(giver -> until(() -> ch.waitingGivers() == 1, "giver waits")
                    .then(Job.of(giver::isDone))
                    .flatMap(doneBefore -> ch.take().flatMap(v -> giver.join().map(x -> doneBefore + " " + v)))));
            assertThat(r).isEqualTo("false x");
        });
    }

    /** Waiting takers are served in arrival order, and so are waiting givers. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void waitingTakersAndGiversAreServedFifo(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            int n = 8;
            Channel<Integer> ch = new Channel<>("fifo");
            List<String> log = new CopyOnWriteArrayList<>();
            List<Fiber<Void>> takers = new ArrayList<>();
            s.run(repeat(n, i -> ch.take().map(v -> {
                log.add("taker " + i + " got " + v);
                return (Void) null;
            }).start().flatMap(f -> {
                takers.add(f);
                return until(() -> ch.waitingTakers() == i + 1, "taker " + i + " waits");
            })).then(repeat(n, i -> ch.give(i))).then(Job.defer(() -> repeat(n, i -> takers.get(i).join()))));
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                expected.add("taker " + i + " got " + i);
            }
            assertThat(log).containsExactlyInAnyOrderElementsOf(expected);

            List<Integer> got = new CopyOnWriteArrayList<>();
            List<Fiber<Void>> givers = new ArrayList<>();
            s.run(repeat(n, i -> ch.give(i).start().flatMap(f -> {
                givers.add(f);
                return until(() -> ch.waitingGivers() == i + 1, "giver " + i + " waits");
            })).then(repeat(n, i -> ch.take().map(got::add))).then(Job.defer(() -> repeat(n, i -> givers.get(i).join()))));
            assertThat(got).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        });
    }

    /** send never blocks; sent values wait in order and interleave FIFO with blocked givers. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void sendNeverBlocksAndQueuesInOrder(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Channel<Integer> ch = new Channel<>("send");
            s.run(repeat(100, i -> ch.send(i)));
            assertThat(ch.waitingGivers()).isEqualTo(100);
            List<Integer> got = s.run(Job.defer(() -> {
                List<Integer> l = new ArrayList<>();
                return repeat(100, i -> ch.take().map(l::add)).map(v -> l);
            }));
            for (int i = 0; i < 100; i++) {
                assertThat(got.get(i)).isEqualTo(i);
            }
            // a send to a waiting taker hands the value over directly
            int v = s.run(ch.take().start().flatMap(t -> until(() -> ch.waitingTakers() == 1, "taker waits")
                    .then(ch.send(42)).then(t.join())));
            assertThat(v).isEqualTo(42);
        });
    }

    /** A fiber cancelled while waiting in take consumes nothing: the next give finds no taker. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancelledTakeConsumesNothing(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Channel<Integer> ch = new Channel<>("cancel-take");
            Outcome<Integer> taken = s.run(ch.take().start().flatMap(t -> until(() -> ch.waitingTakers() == 1, "taker")
                    .then(t.cancel()).then(t.outcome())));
            assertThat(taken).isInstanceOf(Outcome.Cancelled.class);
            assertThat(ch.waitingTakers()).isZero();
            boolean delivered = s.run(Alt.choose(ch.give(1).wrap(v -> true), Alt.after(Duration.ofMillis(20)).wrap(v -> false)));
            assertThat(delivered).isFalse();
            // and the same for a take offered in a choose
            Outcome<Integer> chosen = s.run(Alt.choose(ch.take(), new Channel<Integer>().take()).start().flatMap(t ->
                    until(() -> ch.waitingTakers() == 1, "chooser").then(t.cancel()).then(t.outcome())));
            assertThat(chosen).isInstanceOf(Outcome.Cancelled.class);
            assertThat(ch.waitingTakers()).isZero();
            assertThat(s.run(poll(ch.give(2).wrap(v -> true), false))).isFalse();
        });
    }

    /** A fiber cancelled while waiting in give delivers nothing. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancelledGiveDeliversNothing(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Channel<Integer> ch = new Channel<>("cancel-give");
            s.run(ch.give(7).start().flatMap(g -> until(() -> ch.waitingGivers() == 1, "giver")
                    .then(g.cancel())));
            assertThat(ch.waitingGivers()).isZero();
            assertThat(s.run(poll(ch.take(), -1))).isEqualTo(-1);
        });
    }

    /**
     * A give that waits as the first job of a step queues the step's continuation with the value in it: a
     * plain take and a choose's take each receive the value, and the giver's step goes on with null.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aGiveWaitingAsAStepsFirstJobDeliversItsValue(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Channel<String> ch = new Channel<>("step-give");
            Channel<String> other = new Channel<>("other");
            Job<String> giver = ch.give("v").map(nothing -> "giver resumed with " + nothing);
            Function<Job<String>, Job<String>> onceTheGiverWaits = taking -> giver.start().flatMap(g ->
                    until(() -> ch.waitingGivers() == 1, "giver waits").then(taking)
                            .flatMap(v -> g.join().map(r -> v + "; " + r)));
            assertThat(s.run(onceTheGiverWaits.apply(ch.take()))).isEqualTo("v; giver resumed with null");
            assertThat(s.run(onceTheGiverWaits.apply(Alt.choose(other.take(), ch.take().wrap(v -> "chose " + v)))))
                    .isEqualTo("chose v; giver resumed with null");
            assertThat(ch.waitingGivers()).isZero();
            assertThat(other.waitingTakers()).isZero();
        });
    }

    /** A fiber cancelled while its step's give waits delivers nothing; the step does not go on. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancelledStepGiveDeliversNothing(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Channel<Integer> ch = new Channel<>("cancel-step-give");
            List<String> after = new CopyOnWriteArrayList<>();
            s.run(ch.give(7).then(Job.run(() -> after.add("went on"))).start()
                    .flatMap(g -> until(() -> ch.waitingGivers() == 1, "giver").then(g.cancel())));
            assertThat(ch.waitingGivers()).isZero();
            assertThat(s.run(ch.send(8).then(ch.take()))).isEqualTo(8);
            assertThat(after).isEmpty();
        });
    }

    /** Losing alternatives leave stale entries that later operations drop: the queue stays small. */
    @Test
    void staleAlternativesDoNotAccumulate() throws Exception {
        SchedulerKind.WORKERS_1.use(s -> {
            Channel<Integer> ch = new Channel<>("stale");
            Channel<Integer> other = new Channel<>("other");
            // every round leaves a stale taker on ch (other's value wins after ch's take was registered)
            s.run(repeat(10_000, i -> other.send(i).then(Alt.choose(ch.take(), other.take()))));
            // ... and here the timeout wins after registering
            s.run(repeat(100, i -> Alt.choose(ch.take(), Alt.after(Duration.ofNanos(1)).wrap(v -> 0))));
            assertThat(ch.waitingTakers()).isZero();
            assertThat(ch.takerQueueLength()).as("entries kept, stale included").isLessThan(64);
            // a live waiter in front does not stop the sweep behind it
            int v = s.run(ch.take().start().flatMap(f -> until(() -> ch.waitingTakers() == 1, "taker")
                    .then(repeat(10_000, i -> other.send(i).then(Alt.choose(ch.take(), other.take()))))
                    .then(Job.of(() -> {
                        assertThat(ch.takerQueueLength()).isLessThan(64);
                        return null;
                    }))
                    .then(ch.give(1)).then(f.join())));
            assertThat(v).isEqualTo(1);
        });
    }

    /** Values may be null; names show in toString. */
    @Test
    void nullValuesAndNames() throws Exception {
        SchedulerKind.SINGLE_THREADED.use(s -> {
            Channel<String> ch = new Channel<>("requests");
            s.run(ch.send(null));
            assertThat(s.run(ch.take())).isNull();
            assertThat(ch.toString()).contains("requests");
            assertThat(new Channel<>().toString()).startsWith("Channel[@");
        });
    }

    /** Ping-pong between two fibers completes many round trips (also a smoke test of resumption). */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void pingPong(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Channel<Integer> ping = new Channel<>("ping");
            Channel<Integer> pong = new Channel<>("pong");
            int rounds = 20_000;
            Job<Void> echo = repeat(rounds, i -> ping.take().flatMap(pong::give));
            int last = s.run(echo.start().flatMap(f -> repeat(rounds, i -> ping.give(i).then(pong.take()))
                    .then(f.join()).then(Job.result(rounds))));
            assertThat(last).isEqualTo(rounds);
        });
    }
}
