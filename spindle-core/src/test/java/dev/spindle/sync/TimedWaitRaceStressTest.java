package dev.spindle.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.StressScale;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A timed wait whose deadline races a signal, many thousand times with the signal landing just before, at
 * and after the deadline: the signal reaches the waiter (true) or stays in the AUTO event, exactly one of
 * the two, every time; nothing is left queued and no timer is left pending. (Lincheck cannot reach the
 * timeout branch: under model checking a timed park never times out.)
 */
@Tag("stress")
class TimedWaitRaceStressTest {
    private static final int ROUNDS = StressScale.of(20_000);

    @Test
    void threads() throws Exception {
        Event event = new Event(Event.Mode.AUTO);
        CyclicBarrier start = new CyclicBarrier(2);
        CyclicBarrier end = new CyclicBarrier(2);
        SplittableRandom random = new SplittableRandom(1);
        long[] delays = new long[ROUNDS];
        for (int i = 0; i < ROUNDS; i++) {
            delays[i] = random.nextLong(0, 120_000); // the timeout is 60 us: signal before, at or after it
        }
        boolean[] got = new boolean[ROUNDS];
        Thread signaller = new Thread(() -> {
            try {
                for (int i = 0; i < ROUNDS; i++) {
                    start.await();
                    long until = System.nanoTime() + delays[i];
                    while (System.nanoTime() - until < 0) {
                        Thread.onSpinWait();
                    }
                    event.signal();
                    end.await();
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        signaller.start();
        int lost = 0;
        int duplicated = 0;
        int trues = 0;
        for (int i = 0; i < ROUNDS; i++) {
            start.await();
            got[i] = event.awaitBlocking(Duration.ofNanos(60_000));
            end.await();
            boolean stayed = event.test();
            lost += !got[i] && !stayed ? 1 : 0;
            duplicated += got[i] && stayed ? 1 : 0;
            trues += got[i] ? 1 : 0;
        }
        signaller.join();
        assertThat(lost).as("signals lost").isZero();
        assertThat(duplicated).as("signals taken twice").isZero();
        assertThat(trues).as("some rounds took the signal in time").isPositive();
        assertThat(trues).as("some rounds timed out first").isLessThan(ROUNDS);
        assertThat(event.waiterCount()).isZero();
    }

    @Test
    void fibers() {
        int rounds = ROUNDS / 10;
        int timersBefore = Waits.liveTimers();
        try (Scheduler s = Scheduler.create(2)) {
            SplittableRandom random = new SplittableRandom(2);
            AtomicInteger lost = new AtomicInteger();
            AtomicInteger duplicated = new AtomicInteger();
            AtomicInteger trues = new AtomicInteger();
            for (int i = 0; i < rounds; i++) {
                Event event = new Event(Event.Mode.AUTO);
                long delay = random.nextLong(0, 3_000_000); // the timeout is 1 ms (timer ticks are 1 ms)
                Job<Void> signal = Job.run(() -> {
                    long until = System.nanoTime() + delay;
                    while (System.nanoTime() - until < 0) {
                        Thread.onSpinWait();
                    }
                    event.signal();
                });
                // the waiter runs first (work-first) until it blocks; meanwhile the timer may fire on the
                // other worker while this fiber spins towards its signal
                boolean got = s.run(event.await(Duration.ofMillis(1)).start().flatMap(f -> signal.then(f.join())));
                boolean stayed = event.test();
                if (!got && !stayed) {
                    lost.incrementAndGet();
                }
                if (got && stayed) {
                    duplicated.incrementAndGet();
                }
                if (got) {
                    trues.incrementAndGet();
                }
                assertThat(event.waiterCount()).isZero();
            }
            assertThat(lost).as("signals lost").hasValue(0);
            assertThat(duplicated).as("signals taken twice").hasValue(0);
            assertThat(trues.get()).isBetween(1, rounds - 1);
        }
        assertThat(Waits.liveTimers() - timersBefore).as("timers left pending").isZero();
    }
}
