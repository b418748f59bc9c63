package dev.spindle;

import static dev.spindle.CommJobs.poll;
import static dev.spindle.CommJobs.repeat;
import static dev.spindle.CommJobs.until;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Selective communication: choose, wrap, afterJob, guard, withNack, always, never, after. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AltTest {

    /** With both alternatives ready, choose takes the first in argument order and consumes nothing else. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void chooseCommitsToExactlyOneReadyAlternative(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Channel<Integer> a = new Channel<>("a");
            Channel<Integer> b = new Channel<>("b");
            int reps = 10_000;
            int[] firsts = new int[1];
            s.run(repeat(reps, i -> a.send(i).then(b.send(-i))
                    .then(Alt.choose(a.take().wrap(v -> "a" + v), b.take().wrap(v -> "b" + v)))
                    .flatMap(r -> {
                        if (r.equals("a" + i)) {
                            firsts[0]++;
                        }
                        // exactly one was consumed: b still holds its value, a holds nothing
                        return poll(a.take(), null).flatMap(x -> poll(b.take(), null).map(y -> {
                            assertThat(x).as("a after rep %d", i).isNull();
                            assertThat(y).as("b after rep %d", i).isEqualTo(-i);
                            return y;
                        }));
                    })));
            assertThat(firsts[0]).isEqualTo(reps);
        });
    }

    /** Two givers race to one chooser: each round exactly one give commits and the other still waits. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void chooseCommitsToExactlyOneUnderRacingPartners(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Channel<Integer> a = new Channel<>("a");
            Channel<Integer> b = new Channel<>("b");
            int reps = kind == SchedulerKind.SINGLE_THREADED ? 2_000 : 1_000;
            s.run(repeat(reps, i -> a.give(1).start().flatMap(ga -> b.give(2).start().flatMap(gb ->
                    Alt.choose(a.take(), b.take()).flatMap(v -> {
                        Fiber<Void> winner = v == 1 ? ga : gb;
                        Channel<Integer> loserCh = v == 1 ? b : a;
                        Fiber<Void> loser = v == 1 ? gb : ga;
                        return winner.join().then(Job.of(() -> {
                            assertThat(loser.isDone()).as("the losing giver completed in rep %d", i).isFalse();
                            return null;
                        })).then(loserCh.take()).then(loser.join());
                    })))));
        });
    }

    /** A fiber never rendezvous with itself: give and take on one channel in one choose do not match. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aFiberCannotRendezvousWithItself(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Channel<Integer> ch = new Channel<>("self");
            String r = s.run(Alt.choose(ch.give(1).wrap(v -> "gave"), ch.take().wrap(v -> "took " + v),
                    Alt.after(Duration.ofMillis(20)).wrap(v -> "timeout")));
            assertThat(r).isEqualTo("timeout");
            assertThat(ch.waitingGivers()).isZero();
            assertThat(ch.waitingTakers()).isZero();
            // with a partner, the same choose commits with the partner
            String r2 = s.run(Alt.choose(ch.give(1).wrap(v -> "gave"), ch.take().wrap(v -> "took " + v)).start()
                    .flatMap(f -> until(() -> ch.waitingTakers() == 1, "chooser waits").then(ch.give(5)).then(f.join())));
            assertThat(r2).isEqualTo("took 5");
        });
    }

    /** A losing take consumes nothing: the value given later goes to the next taker. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void losingTakeConsumesNothing(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Channel<Integer> a = new Channel<>("a");
            Channel<Integer> b = new Channel<>("b");
            int v = s.run(Alt.choose(a.take(), b.take()).start().flatMap(f ->
                    until(() -> a.waitingTakers() == 1 && b.waitingTakers() == 1, "chooser waits on both")
                            .then(b.give(2)).then(f.join())));
            assertThat(v).isEqualTo(2);
            assertThat(a.waitingTakers()).as("stale alternative on a").isZero();
            assertThat(s.run(poll(a.give(1).wrap(x -> "delivered"), "nobody took it"))).isEqualTo("nobody took it");
            assertThat(s.run(a.send(3).then(a.take()))).isEqualTo(3);
        });
    }

    /** A nack fires iff its alternative was instantiated and lost, including nested withNacks. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void nackFiresIffItsBranchLost(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            for (int winner = 1; winner <= 3; winner++) {
                Channel<Integer> c1 = new Channel<>("c1");
                Channel<Integer> c2 = new Channel<>("c2");
                Channel<Integer> c3 = new Channel<>("c3");
                List<Alt<Void>> outerNack = new CopyOnWriteArrayList<>();
                List<Alt<Void>> innerNack = new CopyOnWriteArrayList<>();
                // withNack( choose( withNack(c1.take), c2.take ) ), c3.take
                Alt<Integer> nested = Alt.withNack(outer -> Job.of(() -> {
                    outerNack.add(outer);
                    return Alt.choose(Alt.withNack(inner -> Job.of(() -> {
                        innerNack.add(inner);
                        return c1.take();
                    })), c2.take());
                }));
                Channel<Integer> win = winner == 1 ? c1 : winner == 2 ? c2 : c3;
                int w = winner;
                int got = s.run(Alt.choose(nested, c3.take()).start().flatMap(f ->
                        until(() -> c3.waitingTakers() == 1, "chooser waits").then(win.give(w)).then(f.join())));
                assertThat(got).isEqualTo(winner);
                boolean innerFired = s.run(poll(innerNack.get(0).wrap(v -> true), false));
                boolean outerFired = s.run(poll(outerNack.get(0).wrap(v -> true), false));
                assertThat(innerFired).as("inner nack when c%d won", winner).isEqualTo(winner != 1);
                assertThat(outerFired).as("outer nack when c%d won", winner).isEqualTo(winner == 3);
            }
        });
    }

    /** Alternatives after one that is ready at once are not instantiated: no guard runs, no nack exists. */
    @Test
    void laterAlternativesAreNotInstantiatedWhenOneIsReady() throws Exception {
        SchedulerKind.SINGLE_THREADED.use(s -> {
            AtomicInteger guards = new AtomicInteger();
            AtomicInteger nacks = new AtomicInteger();
            Alt<Integer> guarded = Alt.guard(Job.of(() -> {
                guards.incrementAndGet();
                return Alt.always(2);
            }));
            Alt<Integer> nacked = Alt.withNack(n -> Job.of(() -> {
                nacks.incrementAndGet();
                return Alt.always(3);
            }));
            assertThat(s.run(Alt.choose(Alt.always(1), guarded, nacked))).isEqualTo(1);
            assertThat(guards.get()).isZero();
            assertThat(nacks.get()).isZero();
            assertThat(s.run(Alt.choose(Alt.never(), guarded, nacked))).isEqualTo(2);
            assertThat(guards.get()).isEqualTo(1);
            assertThat(nacks.get()).isZero();
        });
    }

    /** A guard runs on every instantiation, in argument order with the other alternatives. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void guardRunsOnEveryInstantiation(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            AtomicInteger runs = new AtomicInteger();
            Channel<Integer> ch = new Channel<>("g");
            Alt<Integer> alt = Alt.guard(Job.of(() -> {
                runs.incrementAndGet();
                return ch.take();
            }));
            int sum = s.run(repeat(5, i -> ch.send(i)).then(Job.defer(() -> {
                int[] total = new int[1];
                return repeat(5, i -> alt.map(v -> total[0] += v)).map(v -> total[0]);
            })));
            assertThat(sum).isEqualTo(10);
            assertThat(runs.get()).isEqualTo(5);
            // a guard may block: its set-up job waits for a value, then the alternative is offered
            Channel<Integer> setUp = new Channel<>("setup");
            int r = s.run(Alt.guard(setUp.take().map(Alt::always)).start().flatMap(f ->
                    until(() -> setUp.waitingTakers() == 1, "guard waits").then(setUp.give(9)).then(f.join())));
            assertThat(r).isEqualTo(9);
        });
    }

    /** wrap and afterJob run after the commit, only for the chosen alternative. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void wrapAndAfterJobRunOnlyForTheWinner(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            List<String> ran = new CopyOnWriteArrayList<>();
            Channel<Integer> ch = new Channel<>("w");
            Alt<String> a = ch.take().wrap(v -> {
                ran.add("wrap a");
                return "a";
            });
            Alt<String> b = Alt.always(2).afterJob(v -> Job.of(() -> {
                ran.add("afterJob b");
                return "b" + v;
            }));
            assertThat(s.run(Alt.choose(a, b))).isEqualTo("b2");
            assertThat(ran).containsExactly("afterJob b");
            // as plain jobs too
            int wrapped = s.run(Alt.always(3).wrap(v -> v + 1));
            int after = s.run(Alt.always(3).afterJob(v -> Job.result(v * 2)));
            assertThat(wrapped).isEqualTo(4);
            assertThat(after).isEqualTo(6);
        });
    }

    /** Alt.after commits once its time has passed, and its timer is removed when another alternative wins. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void afterWorksAndLeavesNoTimer(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            long t0 = System.nanoTime();
            String r = s.run(Alt.choose(new Channel<Integer>().take().wrap(v -> "take"),
                    Alt.after(Duration.ofMillis(30)).wrap(v -> "timeout")));
            assertThat(r).isEqualTo("timeout");
            assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(Duration.ofMillis(30).toNanos());
            String now = s.run(Alt.after(Duration.ZERO).wrap(v -> "now"));
            assertThat(now).isEqualTo("now");
            assertThat(s.run(Alt.choose(Alt.after(Duration.ZERO).wrap(v -> 1), Alt.always(2)))).isEqualTo(1);
            Channel<Integer> ch = new Channel<>("t");
            int v = s.run(ch.send(5).then(Alt.choose(Alt.after(Duration.ofHours(1)).wrap(x -> -1), ch.take())));
            assertThat(v).isEqualTo(5);
            assertThat(s.engine.timers().size()).as("timers left by the losing after").isZero();
            int v2 = s.run(Alt.choose(Alt.after(Duration.ofHours(1)).wrap(x -> -1), ch.take()).start()
                    .flatMap(f -> until(() -> ch.waitingTakers() == 1, "chooser").then(ch.give(6)).then(f.join())));
            assertThat(v2).isEqualTo(6);
            assertThat(s.engine.timers().size()).as("timers left by the losing after").isZero();
        });
    }

    /** Cancelling a fiber blocked in a choose withdraws it from every alternative and fires every nack. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellationFiresEveryNack(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Channel<Integer> a = new Channel<>("a");
            Channel<Integer> b = new Channel<>("b");
            List<Alt<Void>> nacks = new CopyOnWriteArrayList<>();
            Alt<Integer> na = Alt.withNack(n -> Job.of(() -> {
                nacks.add(n);
                return a.take();
            }));
            Alt<Integer> nb = Alt.withNack(n -> Job.of(() -> {
                nacks.add(n);
                return b.take();
            }));
            Outcome<Integer> o = s.run(Alt.choose(na, nb, Alt.after(Duration.ofHours(1)).wrap(v -> 0)).start()
                    .flatMap(f -> until(() -> b.waitingTakers() == 1, "chooser waits").then(f.cancel()).then(f.outcome())));
            assertThat(o).isInstanceOf(Outcome.Cancelled.class);
            assertThat(nacks).hasSize(2);
            for (Alt<Void> n : nacks) {
                assertThat(s.run(poll(n.wrap(v -> true), false))).isTrue();
            }
            assertThat(a.waitingTakers()).isZero();
            assertThat(b.waitingTakers()).isZero();
            assertThat(s.engine.timers().size()).isZero();
            assertThat(s.run(poll(a.give(1).wrap(v -> true), false))).isFalse();
        });
    }

    /** A fiber cancelled while its guard blocks fails with cancellation and fires the nacks instantiated so far. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void cancellationDuringAGuard(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Channel<Integer> a = new Channel<>("a");
            Channel<Integer> setUp = new Channel<>("setup");
            List<Alt<Void>> nacks = new CopyOnWriteArrayList<>();
            Alt<Integer> na = Alt.withNack(n -> Job.of(() -> {
                nacks.add(n);
                return a.take();
            }));
            Alt<Integer> blockingGuard = Alt.guard(setUp.take().map(Alt::always));
            Outcome<Integer> o = s.run(Alt.choose(na, blockingGuard).start().flatMap(f ->
                    until(() -> setUp.waitingTakers() == 1, "guard waits").then(f.cancel()).then(f.outcome())));
            assertThat(o).isInstanceOf(Outcome.Cancelled.class);
            assertThat(s.run(poll(nacks.get(0).wrap(v -> true), false))).isTrue();
            assertThat(a.waitingTakers()).isZero();
            assertThat(setUp.waitingTakers()).isZero();
        });
    }

    /** A partner that commits while the chooser's guard still runs wins; the chooser completes with its value. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void commitDuringAGuardIsHandedOver(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Channel<Integer> a = new Channel<>("a");
            Channel<Integer> setUp = new Channel<>("setup");
            AtomicInteger laterGuard = new AtomicInteger();
            Alt<Integer> blockingGuard = Alt.guard(setUp.take().map(Alt::always));
            Alt<Integer> countingGuard = Alt.guard(Job.of(() -> {
                laterGuard.incrementAndGet();
                return Alt.never();
            }));
            int v = s.run(Alt.choose(a.take(), blockingGuard, countingGuard).start().flatMap(f ->
                    until(() -> setUp.waitingTakers() == 1, "guard waits")
                            .then(a.give(1))               // commits the first alternative meanwhile
                            .then(setUp.give(2))           // lets the guard finish
                            .then(f.join())));
            assertThat(v).isEqualTo(1);
            assertThat(laterGuard.get()).as("guards after the decision").isZero();
        });
    }

    /** A failing guard fails the choose, and the nacks of the alternatives instantiated before it fire. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void failingGuardFailsTheChoose(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            List<Alt<Void>> nacks = new CopyOnWriteArrayList<>();
            Channel<Integer> a = new Channel<>("a");
            Alt<Integer> na = Alt.withNack(n -> Job.of(() -> {
                nacks.add(n);
                return a.take();
            }));
            Alt<Integer> bad = Alt.guard(Job.failure(new IllegalArgumentException("boom")));
            assertThatThrownBy(() -> s.run(Alt.choose(na, bad))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("boom");
            assertThat(s.run(poll(nacks.get(0).wrap(v -> true), false))).isTrue();
            assertThat(a.waitingTakers()).isZero();
            Alt<Integer> nullGuard = Alt.guard(Job.result(null));
            assertThatThrownBy(() -> s.run(nullGuard)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> s.run(Alt.choose(Alt.never(), nullGuard))).isInstanceOf(NullPointerException.class);
            Alt<Integer> throwingNack = Alt.withNack(n -> {
                throw new IllegalStateException("set-up threw");
            });
            assertThatThrownBy(() -> s.run(throwingNack)).isInstanceOf(IllegalStateException.class);
        });
    }

    /** never() waits until cancelled; choose() of nothing never commits. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void neverWaitsUntilCancelled(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Outcome<Object> o = s.run(Alt.never().start().flatMap(f -> Job.sleep(Duration.ofMillis(5))
                    .then(Job.of(f::isDone)).flatMap(done -> {
                        assertThat(done).isFalse();
                        return f.cancel().then(f.outcome());
                    })));
            assertThat(o).isInstanceOf(Outcome.Cancelled.class);
            assertThat(s.run(Alt.choose(Alt.choose(), Alt.always(1)))).isEqualTo(1);
        });
    }

    /** A choose over thousands of alternatives instantiates them in bounded stack. */
    @Test
    void longChooseRunsInBoundedStack() throws Exception {
        SchedulerKind.WORKERS_2.use(s -> {
            List<Alt<Integer>> alts = new ArrayList<>();
            List<Channel<Integer>> chans = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                Channel<Integer> c = new Channel<>();
                chans.add(c);
                alts.add(c.take());
            }
            alts.add(Alt.always(-1));
            assertThat(s.run(Alt.choose(alts))).isEqualTo(-1);
            alts.remove(alts.size() - 1);
            Channel<Integer> last = chans.get(chans.size() - 1);
            int v = s.run(Alt.choose(alts).start().flatMap(f ->
                    until(() -> last.waitingTakers() == 1, "chooser waits").then(last.give(7)).then(f.join())));
            assertThat(v).isEqualTo(7);
        });
    }

    /** A fiber blocked in a choose describes what it waits on (fiber dumps, deadlock reports). */
    @Test
    void blockedChooseDescribesItsAlternatives() throws Exception {
        SchedulerKind.WORKERS_1.use(s -> {
            Channel<Integer> requests = new Channel<>("requests");
            Alt<Integer> alt = Alt.choose(requests.take().wrap(v -> v + 1), new Channel<Integer>("replies").give(1)
                    .wrap(v -> 0), Alt.after(Duration.ofHours(1)).wrap(v -> -1));
            assertThat(alt.toString()).contains("take from Channel[requests").contains("give to Channel[replies")
                    .contains("after PT1H");
            String dump = s.run(alt.start().flatMap(f -> until(() -> requests.waitingTakers() == 1, "chooser")
                    .then(Job.of(f::toString)).flatMap(d -> f.cancel().map(v -> d))));
            assertThat(dump).contains("Channel[requests");
        });
    }

    /** Bad input fails at once with a message that names it. */
    @Test
    void badInputFailsImmediately() {
        assertThatThrownBy(() -> Alt.choose((Alt<Integer>[]) null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Alt.choose(Alt.always(1), null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("alternative 1");
        assertThatThrownBy(() -> Alt.choose((List<Alt<Integer>>) null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Alt.after(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Alt.after(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> Alt.guard(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Alt.withNack(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Alt.always(1).wrap(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Alt.always(1).afterJob(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new IVar<Integer>().fillFailure(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new MVar<Integer>().modify(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Promise.of(null)).isInstanceOf(NullPointerException.class);
    }

    /** A checked exception from a wrap function reaches the runner wrapped, an unchecked one as is. */
    @Test
    void failuresAfterCommitPropagate() throws Exception {
        SchedulerKind.SINGLE_THREADED.use(s -> {
            assertThatThrownBy(() -> s.run(Alt.always(1).wrap(v -> {
                throw new IllegalStateException("after commit");
            }))).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> s.run(Alt.always(1).afterJob(v -> Job.failure(new Exception("checked")))))
                    .isInstanceOf(CompletionException.class);
        });
    }

    /**
     * A choose with a timeout, won by a give from a fiber of another scheduler: the winner fires the pick's
     * listeners on its own worker, and the timer must still leave the queue it was armed on (it once left
     * the winner's queue instead, taking that queue's own far timer with it).
     */
    @Test
    @Timeout(30)
    void aTimeoutBeatenFromAnotherSchedulerLeavesTheRightTimerQueue() throws Exception {
        Channel<Integer> ch = new Channel<>();
        Scheduler a = Scheduler.create(1);
        Scheduler b = Scheduler.create(1);
        try {
            var chosen = a.submit(Alt.choose(ch.take(), Alt.after(Duration.ofSeconds(30)).map(v -> -1)));
            awaitTimers(a, 1);
            b.submit(Job.sleep(Duration.ofSeconds(30)));
            awaitTimers(b, 1);
            b.run(ch.give(7));
            assertThat(chosen.get(10, TimeUnit.SECONDS)).isEqualTo(7);
            assertThat(a.engine.timers().size()).as("the timeout's timer, removed from its own queue").isZero();
            assertThat(b.engine.timers().size()).as("the other scheduler's own sleeper, untouched").isOne();
        } finally {
            b.shutdownNow();
            a.shutdownNow();
        }
    }

    private static void awaitTimers(Scheduler s, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (s.engine.timers().size() != n) {
            assertThat(System.nanoTime() - deadline).as("%s never held %d timers", s, n).isNegative();
            Thread.sleep(1);
        }
    }
}
