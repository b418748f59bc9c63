package dev.spindle.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The timer wheel against a model: a list of pending timers. The engine is driven by a hand-set clock, so
 * the queue sees exactly the instants a test chooses: within one tick, across ticks, past the wheel's
 * horizon (the far heap), and clocks whose origin is negative.
 */
class TimerQueueTest {
    private static final long TICK = 1L << TimerQueue.TICK_SHIFT;
    private static final long HORIZON = TICK * TimerQueue.SLOTS;

    /** A clock the test sets; the engine never drives anything itself here. */
    private static final class ManualClock implements Driver {
        long now;

        ManualClock(long start) {
            now = start;
        }

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public java.time.Instant instant(long nanos) {
            return java.time.Instant.EPOCH.plusNanos(nanos);
        }

        @Override
        public void await(Engine engine, StopCondition stop) {
            throw new UnsupportedOperationException("not driven in this test");
        }

        @Override
        public void awaitQuiescent(Engine engine, StopCondition quiescent) {
            throw new UnsupportedOperationException("not driven in this test");
        }

        @Override
        public boolean runtimeChoosesOrder() {
            return false;
        }

        @Override
        public boolean allowsOtherThreads() {
            return false;
        }

        @Override
        public boolean hasTimerThread() {
            return false; // the test takes due timers itself
        }
    }

    /** A work item that only names itself. */
    private static final class Marker extends Work {
        final int id;

        Marker(int id) {
            this.id = id;
        }

        @Override
        public void doWork(Worker w) {
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
        }
    }

    private record Armed(Timer timer, int id, long deadline) {
    }

    private static TimerQueue queue(ManualClock clock) {
        return new Engine("timer-queue-test", e -> { }, clock, null).timers();
    }

    /**
     * Arms a timer; the record keeps the deadline the queue holds, which differs from the one asked only for
     * a timer already due: that one may move later, to the start of the cursor's tick, but never past now.
     */
    private static Armed arm(TimerQueue q, int id, long deadline) {
        Timer t = new Timer(deadline, new Marker(id));
        q.schedule(t);
        long now = q.engine.nanoTime();
        if (deadline - now >= 0) {
            assertThat(t.deadline).as("a timer not yet due keeps its deadline").isEqualTo(deadline);
        } else {
            assertThat(t.deadline).as("a timer armed when due stays due").isBetween(deadline, now);
        }
        return new Armed(t, id, t.deadline);
    }

    /** The ids of a fired chain, in chain order. */
    private static List<Integer> ids(Work chain) {
        List<Integer> ids = new ArrayList<>();
        for (Work w = chain; w != null; w = w.next) {
            ids.add(((Marker) ((Timer) w).work).id);
        }
        return ids;
    }

    @Test
    void timersWithinOneTickFireAtTheirOwnDeadlinesInDeadlineThenArmingOrder() {
        ManualClock clock = new ManualClock(0);
        TimerQueue q = queue(clock);
        arm(q, 1, 300);
        arm(q, 2, 100);
        arm(q, 3, 100);
        assertThat(q.nextDeadline()).isEqualTo(100);
        assertThat(ids(q.takeDue(99))).isEmpty();
        assertThat(ids(q.takeDue(100))).containsExactly(2, 3);
        assertThat(q.nextDeadline()).isEqualTo(300);
        assertThat(ids(q.takeDue(300))).containsExactly(1);
        assertThat(q.size()).isZero();
        assertThat(q.nextDeadline()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aTimerDueWhenArmedFiresAtTheNextTake() {
        ManualClock clock = new ManualClock(10 * TICK);
        TimerQueue q = queue(clock);
        arm(q, 1, 11 * TICK);
        clock.now = 12 * TICK;
        q.takeDue(clock.now);
        arm(q, 2, 3 * TICK); // long past: now held as due at the start of the cursor's tick
        assertThat(q.nextDeadline()).isEqualTo(12 * TICK);
        assertThat(ids(q.takeDue(clock.now))).containsExactly(2);
    }

    @Test
    void farTimersMoveIntoTheWheelAndFireExactlyEvenAfterAJumpPastTheHorizon() {
        ManualClock clock = new ManualClock(0);
        TimerQueue q = queue(clock);
        arm(q, 1, 5 * HORIZON + 7);
        arm(q, 2, HORIZON / 2);
        arm(q, 3, 3 * HORIZON);
        assertThat(q.nextDeadline()).isEqualTo(HORIZON / 2);
        assertThat(ids(q.takeDue(2 * HORIZON))).containsExactly(2);
        assertThat(q.nextDeadline()).isEqualTo(3 * HORIZON);
        assertThat(ids(q.takeDue(5 * HORIZON + 6))).containsExactly(3);
        assertThat(q.nextDeadline()).isEqualTo(5 * HORIZON + 7);
        assertThat(ids(q.takeDue(5 * HORIZON + 7))).containsExactly(1);
        assertThat(q.size()).isZero();
    }

    @Test
    void removingFromTheWheelAndTheHeapLeavesNothingBehind() {
        ManualClock clock = new ManualClock(0);
        TimerQueue q = queue(clock);
        Armed near = arm(q, 1, TICK);
        Armed sameSlot = arm(q, 2, TICK + 1);
        Armed far = arm(q, 3, 10 * HORIZON);
        assertThat(q.cancel(near.timer())).isTrue();
        assertThat(q.cancel(near.timer())).as("a second removal").isFalse();
        assertThat(q.cancel(far.timer())).isTrue();
        assertThat(q.size()).isEqualTo(1);
        assertThat(ids(q.takeDue(20 * HORIZON))).containsExactly(2);
        assertThat(q.cancel(sameSlot.timer())).as("removing a fired timer").isFalse();
        assertThat(q.size()).isZero();
    }

    /**
     * Random arming, removal and clock moves against the model; every take must return exactly the due
     * timers, in (deadline tick, arming) order, and nextDeadline must be the model's minimum.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 42, 0x5eed})
    void agreesWithAListOfPendingTimers(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long start = random.nextBoolean() ? 0 : -(1L << 40) + random.nextLong(TICK); // negative origins too
        ManualClock clock = new ManualClock(start);
        TimerQueue q = queue(clock);
        List<Armed> pending = new ArrayList<>();
        int nextId = 0;
        for (int step = 0; step < 20_000; step++) {
            int op = random.nextInt(10);
            String where = "seed " + seed + ", step " + step;
            if (op < 5) {
                long delay = switch (random.nextInt(4)) {
                    case 0 -> random.nextLong(TICK * 2); // same or next tick
                    case 1 -> random.nextLong(HORIZON); // anywhere on the wheel
                    case 2 -> HORIZON + random.nextLong(HORIZON * 3); // the far heap
                    default -> -random.nextLong(TICK * 3); // already due
                };
                pending.add(arm(q, nextId++, clock.now + delay));
            } else if (op < 7 && !pending.isEmpty()) {
                Armed a = pending.remove(random.nextInt(pending.size()));
                assertThat(q.cancel(a.timer())).as(where).isTrue();
            } else {
                long expectedNext = pending.stream().mapToLong(Armed::deadline).min().orElse(Long.MAX_VALUE);
                assertThat(q.nextDeadline()).as(where).isEqualTo(expectedNext);
                if (random.nextBoolean() && expectedNext != Long.MAX_VALUE) {
                    clock.now = Math.max(clock.now, expectedNext); // the simulator's move
                } else {
                    clock.now += random.nextLong(random.nextBoolean() ? TICK * 4 : HORIZON * 2);
                }
                long now = clock.now;
                List<Armed> due = new ArrayList<>();
                pending.removeIf(a -> a.deadline() - now <= 0 && due.add(a));
                List<Integer> fired = ids(q.takeDue(now));
                assertThat(fired).as(where).containsExactlyInAnyOrderElementsOf(due.stream().map(Armed::id).toList());
            }
            assertThat(q.size()).as(where).isEqualTo(pending.size());
        }
    }
}
