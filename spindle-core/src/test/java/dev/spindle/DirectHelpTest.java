package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.internal.run.Worker;
import dev.spindle.test.fixture.SchedulerKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Helping while waiting on the continuation backend ({@link ContinuationBody#HELPS}): a body whose await must
 * wait first runs the next body step of its worker on its own stack. Counted through
 * {@link Worker#helpedCount}: every helped round trip of a ping-pong on one worker, none when helping is
 * off ({@code -Dspindle.direct.help=false}, a run of its own). The outcomes must be those of the
 * unhelped run: values, failures, cancellation with {@code finally} blocks; and a pair helped forever must
 * not starve work queued from outside.
 */
class DirectHelpTest {
    private static final int ROUND_TRIPS = 1_000;

    @BeforeEach
    void continuationsOnly() {
        assumeTrue(Direct.backend() == Direct.Backend.CONTINUATION, "helping needs the continuation backend");
    }

    @Test
    void helpingIsOnExactlyWhereMonitorsDoNotPinAndNotSwitchedOff() {
        boolean off = System.getProperty("spindle.direct.help", "true").equals("false");
        assertThat(ContinuationBody.HELPS).isEqualTo(Runtime.version().feature() >= 24 && !off);
    }

    /** The worker that runs the calling direct body. */
    private static Worker homeWorker() {
        return ((ContinuationBody<?>) DirectBody.current()).home();
    }

    /** Runs {@code rounds} round trips; returns the sum A received and how many steps the worker helped. */
    private static long[] pingPong(Scheduler s, int rounds) {
        Channel<Integer> ping = new Channel<>();
        Channel<Integer> pong = new Channel<>();
        return s.run(Job.direct(() -> {
            Fiber<Integer> b = Job.direct(() -> {
                for (int i = 0; i < rounds; i++) {
                    pong.give(ping.take().await() * 2).await();
                }
                return rounds;
            }).start().await();
            long before = homeWorker().helpedCount();
            long sum = 0;
            for (int i = 0; i < rounds; i++) {
                ping.give(i).await();
                sum += pong.take().await();
            }
            long helped = homeWorker().helpedCount() - before;
            assertThat(b.join().await()).isEqualTo(rounds);
            return new long[] {sum, helped};
        }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void everyRoundTripOfAPingPongOnOneWorkerIsHelpedOnce(SchedulerKind kind) {
        kind.use(s -> {
            long[] r = pingPong(s, ROUND_TRIPS);
            assertThat(r[0]).isEqualTo((long) ROUND_TRIPS * (ROUND_TRIPS - 1));
            // the partner's step runs on the waiting body's stack, once per round trip (the last one
            // ends the partner, whose step then finishes instead of waiting)
            assertThat(r[1]).isEqualTo(ContinuationBody.HELPS ? ROUND_TRIPS : 0);
        });
    }

    /** The same with the helper's waits in blocked gives (the wait queue holds a node carrying the body). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void aBodyWaitingInABlockedGiveHelpsToo(SchedulerKind kind) {
        Channel<Integer> ping = new Channel<>();
        Channel<Integer> pong = new Channel<>();
        kind.use(s -> {
            long[] r = s.run(Job.direct(() -> {
                Fiber<Integer> b = Job.direct(() -> {
                    int x = 0;
                    for (int i = 0; i < ROUND_TRIPS; i++) {
                        pong.give(x).await(); // waits for the helper's take
                        x = ping.take().await();
                    }
                    return x;
                }).start().await();
                long before = homeWorker().helpedCount();
                long sum = 0;
                for (int i = 0; i < ROUND_TRIPS; i++) {
                    sum += pong.take().await();
                    ping.give(i).await(); // the partner is not taking yet: this give waits
                }
                long helped = homeWorker().helpedCount() - before;
                assertThat(b.join().await()).isEqualTo(ROUND_TRIPS - 1);
                return new long[] {sum, helped};
            }));
            assertThat(r[0]).isEqualTo((long) (ROUND_TRIPS - 1) * (ROUND_TRIPS - 2) / 2);
            assertThat(r[1]).isEqualTo(ContinuationBody.HELPS ? ROUND_TRIPS : 0);
        });
    }

    /**
     * A ring of five bodies passing a counter: each wait helps at most one step (the next body's), which
     * wakes a third body instead of completing the helper's await, so the helper then yields. Every hop
     * is counted once, in order, whoever runs it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void aRingOfBodiesPassesEveryHopInOrder(SchedulerKind kind) {
        int members = 5;
        int hops = 1_000;
        List<Channel<Integer>> links = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            links.add(new Channel<>());
        }
        List<Integer> seen = new CopyOnWriteArrayList<>();
        kind.use(s -> {
            List<Job<Integer>> ring = new ArrayList<>();
            for (int i = 0; i < members; i++) {
                Channel<Integer> in = links.get(i);
                Channel<Integer> out = links.get((i + 1) % members);
                ring.add(Job.direct(() -> {
                    while (true) {
                        int token = in.take().await();
                        if (token >= hops) { // the end goes once round the ring: each member leaves on it
                            if (token < hops + members - 1) {
                                out.give(token + 1).await();
                            }
                            return token;
                        }
                        seen.add(token);
                        out.give(token + 1).await();
                    }
                }));
            }
            List<Job<Integer>> all = new ArrayList<>(ring);
            all.add(Job.direct(() -> {
                links.get(0).give(0).await();
                return -1;
            }));
            assertThat(s.run(Job.all(all)).stream().mapToInt(Integer::intValue).sum())
                    .isEqualTo(members * hops + members * (members - 1) / 2 - 1);
        });
        assertThat(seen).hasSize(hops);
        for (int i = 0; i < hops; i++) {
            assertThat(seen.get(i)).isEqualTo(i);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void aHelpedBodysFailureReachesItsJoinerAndTheHelperGoesOn(SchedulerKind kind) {
        Channel<Integer> ping = new Channel<>();
        Channel<Integer> pong = new Channel<>();
        kind.use(s -> assertThat(s.run(Job.direct(() -> {
            Fiber<Integer> b = Job.<Integer>direct(() -> {
                for (int i = 0; ; i++) {
                    int v = ping.take().await();
                    if (v == 10) {
                        throw new IllegalStateException("echo failed at " + v);
                    }
                    pong.give(v).await();
                }
            }).start().await();
            int sum = 0;
            for (int i = 0; i < 10; i++) {
                ping.give(i).await();
                sum += pong.take().await();
            }
            ping.give(10).await();
            assertThatThrownBy(() -> b.join().await())
                    .isInstanceOf(IllegalStateException.class).hasMessage("echo failed at 10");
            return sum;
        }))).isEqualTo(45));
    }

    /** A body that echoes {@code ping} on {@code pong} until cancelled, then adds {@code last} to events. */
    private static Job<Integer> echoUntilCancelled(Channel<Integer> ping, Channel<Integer> pong,
            List<String> events, String last) {
        return Job.<Integer>direct(() -> {
            try {
                while (true) {
                    pong.give(ping.take().await()).await();
                }
            } finally {
                events.add(last);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void cancellingAHelpedBodyRunsItsFinallyBlocks(SchedulerKind kind) {
        List<String> events = new ArrayList<>();
        Channel<Integer> ping = new Channel<>();
        Channel<Integer> pong = new Channel<>();
        kind.use(s -> {
            Outcome<?> outcome = s.run(Job.direct(() -> {
                Fiber<Integer> b = echoUntilCancelled(ping, pong, events, "echo finally").start().await();
                for (int i = 0; i < 100; i++) {
                    ping.give(i).await();
                    pong.take().await();
                }
                b.cancel().await();
                events.add("cancelled");
                return b.outcome().await();
            }));
            assertThat(outcome).isInstanceOf(Outcome.Cancelled.class);
            assertThat(events).containsExactly("echo finally", "cancelled");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void aHelpedBodyAwaitsAHundredFramesDeep(SchedulerKind kind) {
        Channel<Integer> ping = new Channel<>();
        Channel<Integer> pong = new Channel<>();
        kind.use(s -> assertThat(s.run(Job.direct(() -> {
            Fiber<Integer> b = Job.direct(() -> deepEcho(100, ping, pong)).start().await();
            int sum = 0;
            for (int i = 0; i < 100; i++) {
                ping.give(i).await();
                sum += pong.take().await();
            }
            return sum + b.join().await();
        }))).isEqualTo(4950 + 100));
    }

    /** Echoes 100 values from {@code depth} nested frames down. */
    private static int deepEcho(int depth, Channel<Integer> ping, Channel<Integer> pong) {
        if (depth > 1) {
            return 1 + deepEcho(depth - 1, ping, pong);
        }
        for (int i = 0; i < 100; i++) {
            pong.give(ping.take().await()).await();
        }
        return 1;
    }

    /**
     * Two bodies ping-pong until a flag is set by a fiber submitted from another (ordinary) thread once the
     * pair is underway, which goes to the global queue: helping must leave the worker's periodic look
     * there to the loop, else the pair would run forever. (Submitted before the pair starts, both could be
     * taken in one batch from the global queue, and the flag's fiber would wait under the pair on the
     * local stack; that is not what this checks.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    @Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang, not a timing check
    void aPairHelpedForeverStillLetsWorkFromOutsideRun(SchedulerKind kind) {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch underway = new CountDownLatch(1);
        Channel<Boolean> ping = new Channel<>();
        Channel<Boolean> pong = new Channel<>();
        kind.use(s -> {
            Job<Long> pair = Job.direct(() -> {
                Fiber<Long> b = Job.direct(() -> {
                    long n = 0;
                    while (ping.take().await()) {
                        pong.give(true).await();
                        n++;
                    }
                    return n;
                }).start().await();
                long n = 0;
                while (!stop.get()) {
                    ping.give(true).await();
                    pong.take().await();
                    if (++n == 1_000) {
                        underway.countDown();
                    }
                }
                ping.give(false).await();
                assertThat(b.join().await()).isEqualTo(n);
                return n;
            });
            Thread setter = Thread.ofPlatform().start(() -> {
                try {
                    underway.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                s.submit(Job.of(() -> {
                    stop.set(true);
                    return null;
                }));
            });
            assertThat(s.run(pair)).isGreaterThanOrEqualTo(1_000);
            setter.join();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#oneWorker")
    void helpingKeepsEveryBodyOnTheThreadItStartedOn(SchedulerKind kind) {
        Channel<Thread> ping = new Channel<>();
        Channel<Thread> pong = new Channel<>();
        kind.use(s -> s.run(Job.direct(() -> {
            Fiber<Boolean> b = Job.direct(() -> {
                Thread mine = Thread.currentThread();
                for (int i = 0; i < 100; i++) {
                    ping.take().await();
                    pong.give(mine).await();
                    if (Thread.currentThread() != mine) {
                        return false;
                    }
                }
                return true;
            }).start().await();
            Thread mine = Thread.currentThread();
            for (int i = 0; i < 100; i++) {
                ping.give(mine).await();
                assertThat(pong.take().await()).isSameAs(mine); // one worker: one thread for both
                assertThat(Thread.currentThread()).isSameAs(mine);
            }
            assertThat(b.join().await()).isTrue();
            return null;
        })));
    }

    @Test
    void aCancelledHelperEndsCancelledWithItsPartnerAndBothFinallyBlocksRun() throws Exception {
        // the helper is cancelled from outside while the pair runs: it ends cancelled, and its partner (its
        // child) with it; close() waits for both, whose finally blocks have run by then
        List<String> events = new CopyOnWriteArrayList<>();
        CountDownLatch underway = new CountDownLatch(1);
        SchedulerKind.WORKERS_1.use(s -> {
            Channel<Integer> ping = new Channel<>();
            Channel<Integer> pong = new Channel<>();
            var running = s.submit(Job.<Integer>direct(() -> {
                try {
                    echoUntilCancelled(ping, pong, events, "partner finally").start().await();
                    for (int i = 0; ; i++) {
                        ping.give(i).await();
                        pong.take().await();
                        if (i == 100) {
                            underway.countDown();
                        }
                    }
                } finally {
                    events.add("helper finally");
                }
            }));
            underway.await();
            running.cancel(true);
            assertThatThrownBy(running::join).isInstanceOf(CancellationException.class);
        });
        assertThat(events).containsExactlyInAnyOrder("partner finally", "helper finally");
    }
}
