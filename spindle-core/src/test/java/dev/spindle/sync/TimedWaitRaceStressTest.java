package dev.spindle.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.spindle.HelperThread;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.StressScale;
import dev.spindle.test.fixture.Patience;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A timed wait whose deadline races a signal, many thousand times with the signal landing just before, at
 * and after the deadline: in every round the signal reaches the waiter (true) or stays in the AUTO event,
 * exactly one of the two, and no waiter is left queued; at the end no timer is left pending. Which side wins
 * a round depends on the machine, so only that invariant is asserted, round by round; how often the waiter
 * took the signal is printed to the test's output. Each side on its own is pinned by {@code EventTest}
 * ({@code timedWaitOnSignalledEvent}, {@code timedWaitTakesItsTime}). Lincheck cannot reach the timeout
 * branch: under model checking a timed park never times out.
 */
@Tag("stress")
class TimedWaitRaceStressTest {
    /** Seed of the signal delays of {@link #threads}. */
    private static final long THREADS_SEED = 1;
    /** Seed of the signal delays of {@link #fibers}. */
    private static final long FIBERS_SEED = 2;

    @Test
    void threads() throws Exception {
        int rounds = StressScale.of(20_000);
        Duration timeout = Duration.ofNanos(60_000);
        long[] delays = delays(THREADS_SEED, rounds, 2 * timeout.toNanos()); // before, at or after the deadline
        Event event = new Event(Event.Mode.AUTO);
        CyclicBarrier start = new CyclicBarrier(2);
        CyclicBarrier end = new CyclicBarrier(2);
        HelperThread signaller = HelperThread.start("signaller", () -> {
            for (int i = 0; i < rounds; i++) {
                await(start);
                spin(delays[i]);
                event.signal();
                await(end);
            }
        });
        int took = 0;
        try {
            for (int i = 0; i < rounds; i++) {
                await(start);
                boolean got = event.awaitBlocking(timeout);
                await(end);
                checkExactlyOnce(event, got, i, delays[i], THREADS_SEED);
                took += got ? 1 : 0;
            }
        } catch (Throwable e) {
            start.reset(); // lets the signaller out of the barrier it waits at
            end.reset();
            throw e;
        }
        signaller.join();
        report("threads", took, rounds);
    }

    @Test
    void fibers() {
        int rounds = StressScale.of(2_000);
        Duration timeout = Duration.ofMillis(1); // timer ticks are 1 ms
        long[] delays = delays(FIBERS_SEED, rounds, 3 * timeout.toNanos());
        int timersBefore = Waits.liveTimers();
        int took = 0;
        try (Scheduler s = Scheduler.create(2)) {
            for (int i = 0; i < rounds; i++) {
                Event event = new Event(Event.Mode.AUTO);
                long delay = delays[i];
                Job<Void> signal = Job.run(() -> {
                    spin(delay);
                    event.signal();
                });
                // the waiter runs first (work-first) until it blocks; meanwhile the timer may fire on the
                // other worker while this fiber spins towards its signal
                boolean got = s.run(event.await(timeout).start().flatMap(f -> signal.then(f.join())));
                checkExactlyOnce(event, got, i, delay, FIBERS_SEED);
                took += got ? 1 : 0;
            }
        }
        assertThat(Waits.liveTimers() - timersBefore).as("timers left pending").isZero();
        report("fibers", took, rounds);
    }

    /** The signal delays of one test, in [0, bound) ns, from {@code seed}. */
    private static long[] delays(long seed, int rounds, long bound) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] delays = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            delays[i] = random.nextLong(0, bound);
        }
        return delays;
    }

    /**
     * The invariant of one round, once both sides are done: the signal went to the waiter or stayed in the
     * event (AUTO: {@code test()} consumes it, so the next round starts clear), exactly one; no waiter left.
     */
    private static void checkExactlyOnce(Event event, boolean got, int round, long delay, long seed) {
        boolean stayed = event.test();
        if (got == stayed) {
            fail("round %d (signal after %d ns, seed %d, %s): the signal %s", round, delay, seed,
                    StressScale.describe(), got ? "was taken twice: by the waiter and left in the event" : "was lost");
        }
        if (event.waiterCount() != 0) {
            fail("round %d (signal after %d ns, seed %d): %d waiter(s) left", round, delay, seed, event.waiterCount());
        }
    }

    /** Prints how the rounds went (the test's output in the surefire report), for a reader, not a check. */
    private static void report(String test, int took, int rounds) {
        System.out.printf("TimedWaitRaceStressTest.%s: %d rounds, the waiter took the signal in %d, timed out in %d%n",
                test, rounds, took, rounds - took);
    }

    private static void spin(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }

    /** Both threads of {@link #threads} meet at a barrier; the hang guard fails a round that never meets. */
    private static void await(CyclicBarrier barrier)
            throws InterruptedException, BrokenBarrierException, TimeoutException {
        barrier.await(Patience.LONG.toNanos(), TimeUnit.NANOSECONDS);
    }
}
