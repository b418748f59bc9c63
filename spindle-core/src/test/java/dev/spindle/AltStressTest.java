package dev.spindle;

import static dev.spindle.CommJobs.repeat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stress of selective communication: many fibers, chooses on both sides of a rendezvous (two-pick
 * commits), timeouts and cancellation racing with commits. Each test checks a conservation law: what was
 * delivered was taken exactly once, nothing cancelled was delivered, and every nack fired exactly when its
 * branch lost. Round and fiber counts scale with {@link StressScale}.
 */
@Tag("stress")
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AltStressTest {
    /** Fibers that each offer give and take on one channel: every exchange pairs one give with one take. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void symmetricSwapsPairUp(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            int fibers = 64;
            int rounds = StressScale.of(300);
            Channel<Integer> ch = new Channel<>("swap");
            AtomicIntegerArray givenBy = new AtomicIntegerArray(fibers);
            AtomicIntegerArray takenFrom = new AtomicIntegerArray(fibers);
            AtomicInteger timeouts = new AtomicInteger();
            List<Fiber<Void>> fs = new ArrayList<>();
            s.run(repeat(fibers, id -> repeat(rounds, r -> Alt.choose(
                    ch.give(id).wrap(v -> givenBy.incrementAndGet(id)),
                    ch.take().wrap(from -> {
                        assertThat(from).as("a fiber took its own value").isNotEqualTo(id);
                        return takenFrom.incrementAndGet(from);
                    }),
                    Alt.after(Duration.ofMillis(1)).wrap(v -> timeouts.incrementAndGet()))).start().map(fs::add))
                    .then(Job.defer(() -> repeat(fibers, i -> fs.get(i).join()))));
            long exchanges = 0;
            for (int id = 0; id < fibers; id++) {
                assertThat(takenFrom.get(id)).as("values of fiber %d taken vs given", id).isEqualTo(givenBy.get(id));
                exchanges += givenBy.get(id);
            }
            assertThat(exchanges * 2 + timeouts.get()).isEqualTo((long) fibers * rounds);
            assertThat(ch.waitingGivers() + ch.waitingTakers()).isZero();
        });
    }

    /**
     * Takers and givers, plain and in chooses with timeouts, started concurrently with a fiber that cancels
     * them at random while they wait: a cancelled operation delivered or consumed nothing, a committed one
     * exactly once, and every delivered value was taken exactly once. How many were cancelled and how many
     * committed depends on the machine (at a small scale either can be zero), so it is printed, not checked.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void commitOrCancelNeverBoth(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            int n = 2 * StressScale.of(2000); // even ids give, odd ids take
            Channel<Integer> a = new Channel<>("a");
            Channel<Integer> b = new Channel<>("b");
            AtomicIntegerArray delivered = new AtomicIntegerArray(n); // by giver id: its give committed
            AtomicIntegerArray taken = new AtomicIntegerArray(n);     // by value: times taken
            AtomicIntegerArray tookSomething = new AtomicIntegerArray(n); // by taker id
            AtomicReferenceArray<Fiber<?>> fibers = new AtomicReferenceArray<>(n);
            AtomicInteger cancels = new AtomicInteger();
            Job<Void> startGivers = Job.defer(() -> {
                SplittableRandom random = new SplittableRandom(1);
                return repeat(n / 2, j -> {
                    int id = 2 * j;
                    Alt<Void> give = (random.nextBoolean() ? a : b).give(id).wrap(v -> {
                        delivered.incrementAndGet(id);
                        return v;
                    });
                    Job<Void> job = random.nextInt(3) == 0 ? give
                            : Alt.choose(give, Alt.after(Duration.ofMillis(random.nextInt(3))));
                    return job.start().map(f -> fibers.getAndSet(id, f)).then(Job.yieldNow());
                });
            });
            Job<Void> startTakers = Job.defer(() -> {
                SplittableRandom random = new SplittableRandom(2);
                return repeat(n / 2, j -> {
                    int id = 2 * j + 1;
                    Alt<Integer> take = Alt.choose(a.take(), b.take()).wrap(v -> {
                        taken.incrementAndGet(v);
                        tookSomething.incrementAndGet(id);
                        return v;
                    });
                    Job<Integer> job = random.nextInt(3) == 0 ? take
                            : Alt.choose(take, Alt.after(Duration.ofMillis(random.nextInt(3))).wrap(v -> -1));
                    return job.start().map(f -> fibers.getAndSet(id, f)).then(Job.yieldNow());
                });
            });
            Job<Void> canceller = Job.defer(() -> {
                SplittableRandom random = new SplittableRandom(3);
                return repeat(n, j -> {
                    Fiber<?> f = fibers.get(random.nextInt(n));
                    if (f == null || random.nextInt(3) != 0) {
                        return Job.yieldNow();
                    }
                    cancels.incrementAndGet();
                    return f.cancel();
                });
            });
            s.run(startGivers.start().flatMap(g -> startTakers.start().flatMap(t -> canceller.start().flatMap(c ->
                    g.join().then(t.join()).then(c.join()))))
                    // drain what givers still wait, then stop the takers still waiting
                    .then(Job.defer(() -> drain(a, taken).then(drain(b, taken))))
                    .then(Job.defer(() -> repeat(n, i -> fibers.get(i).cancel()))));
            int cancelledWaiting = 0;
            int committed = 0;
            for (int id = 0; id < n; id++) {
                assertThat(taken.get(id)).as("value %d: taken vs delivered", id).isEqualTo(delivered.get(id));
                int did = id % 2 == 0 ? delivered.get(id) : tookSomething.get(id);
                assertThat(did).as("operation %d committed", id).isLessThanOrEqualTo(1);
                Outcome<?> o = s.run(fibers.get(id).outcome());
                if (o instanceof Outcome.Cancelled) {
                    assertThat(did).as("cancelled operation %d delivered or consumed", id).isZero();
                    cancelledWaiting++;
                } else {
                    committed += did;
                }
            }
            System.out.printf("AltStressTest.commitOrCancelNeverBoth(%s): %d operations, %d cancellations attempted"
                    + " while running, %d committed, %d cancelled while waiting%n", kind, n, cancels.get(), committed,
                    cancelledWaiting);
        });
    }

    private static Job<Void> drain(Channel<Integer> ch, AtomicIntegerArray taken) {
        return Alt.choose(ch.take().wrap(v -> {
            taken.incrementAndGet(v);
            return true;
        }), Alt.after(Duration.ofMillis(20)).wrap(v -> false)).flatMap(more -> more ? drain(ch, taken) : Job.unit());
    }

    /** Random nested withNack chooses: per choose, exactly the nacks of the losing instantiated branches fire. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void nacksFireExactlyForLosers(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            int choosers = StressScale.of(500);
            int width = 4;
            List<Channel<Integer>> chans = new ArrayList<>();
            for (int c = 0; c < width; c++) {
                chans.add(new Channel<>("c" + c));
            }
            ConcurrentHashMap<Integer, List<Alt<Void>>> nacksOf = new ConcurrentHashMap<>();
            ConcurrentHashMap<Integer, Integer> wonBy = new ConcurrentHashMap<>();
            List<Fiber<Integer>> fs = new ArrayList<>();
            SplittableRandom random = new SplittableRandom(11);
            s.run(repeat(choosers, id -> {
                List<Alt<Void>> nacks = new ArrayList<>();
                nacksOf.put(id, nacks);
                List<Alt<Integer>> alts = new ArrayList<>();
                for (int c = 0; c < width; c++) {
                    int branch = c;
                    Channel<Integer> ch = chans.get(c);
                    alts.add(Alt.withNack(nack -> Job.of(() -> {
                        synchronized (nacks) {
                            nacks.add(nack);
                        }
                        return ch.take().wrap(v -> {
                            wonBy.put(id, branch);
                            return branch;
                        });
                    })));
                }
                Job<Fiber<Integer>> chooser = Alt.choose(alts).start();
                return chooser.map(fs::add);
            }).then(Job.defer(() -> repeat(choosers, i -> chans.get(random.nextInt(width)).give(i))))
                    .then(Job.defer(() -> repeat(choosers, i -> fs.get(i).join()))));
            for (int id = 0; id < choosers; id++) {
                List<Alt<Void>> nacks = nacksOf.get(id);
                assertThat(nacks).hasSize(width);
                int winner = wonBy.get(id);
                for (int c = 0; c < width; c++) {
                    boolean fired = s.run(CommJobs.poll(nacks.get(c).wrap(v -> true), false));
                    assertThat(fired).as("chooser %d branch %d (winner %d)", id, c, winner).isEqualTo(c != winner);
                }
            }
        });
    }

    /** The lock server under heavier load, repeated. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void lockServerRepeated(SchedulerKind kind) throws Exception {
        LockServerTest t = new LockServerTest();
        for (int i = 0; i < StressScale.of(10); i++) {
            t.nacksAbandonRequestsUnderCancellation(kind);
        }
    }

    /** Many ping-pong pairs at once: no lost wake-up, every round trip completes. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void manyPingPongPairs(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            int pairs = 500;
            int rounds = StressScale.of(200);
            List<Fiber<Void>> fs = new ArrayList<>();
            s.run(repeat(pairs, p -> {
                Channel<Integer> ping = new Channel<>();
                Channel<Integer> pong = new Channel<>();
                Job<Void> echo = repeat(rounds, i -> ping.take().flatMap(pong::give));
                Job<Void> driver = repeat(rounds, i -> ping.give(i).then(pong.take()));
                return echo.start().map(fs::add).then(driver.start().map(fs::add));
            }).then(Job.defer(() -> repeat(fs.size(), i -> fs.get(i).join()))));
        });
    }
}
