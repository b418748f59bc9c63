package dev.spindle.sync;

import dev.spindle.LincheckOptions;
import dev.spindle.Outcome;
import dev.spindle.ParkedFibers;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link ConditionVariable}'s wait queue against a FIFO queue, by Lincheck model
 * checking: three fibers wait in {@code await(mutex, predicate)} in a known order ({@link ParkedFibers});
 * the operations are {@code signal} (wakes the oldest waiter still waiting: a signal racing a cancellation
 * is never lost), {@code signalAll}, cancelling a waiter (withdrawn if still waiting) and the number of
 * waiters. Which waiter a signal took shows in later counts (a cancel of an already signalled waiter
 * changes nothing). {@link #settle} then makes the predicate true, wakes the rest and runs the waiters:
 * each ends holding the mutex and lets it go, and only a cancelled one may end cancelled.
 */
@Param(name = "waiter", gen = IntGen.class, conf = "0:2")
public class ConditionVariableLincheckTest {
    private static final int WAITERS = 3;

    private final Mutex mutex = new Mutex("lincheck");
    private final ConditionVariable cv = new ConditionVariable("lincheck");
    private final AtomicBoolean[] cancelRequested = new AtomicBoolean[WAITERS];
    private final ParkedFibers waiters = new ParkedFibers();
    private volatile boolean open;

    public ConditionVariableLincheckTest() {
        for (int i = 0; i < WAITERS; i++) {
            cancelRequested[i] = new AtomicBoolean();
            int linked = i + 1;
            waiters.park(mutex.withLock(cv.await(mutex, () -> open)), () -> cv.waiterCount() == linked);
        }
    }

    @Operation
    public void signal() {
        cv.signal();
    }

    /** Once per scenario: it empties the queue, and the races worth exploring are with waiters left. */
    @Operation(runOnce = true)
    public void signalAll() {
        cv.signalAll();
    }

    /**
     * Once per scenario: a second, concurrent request returns at once (the flag is already set) while the
     * first may still be withdrawing the fiber, so only the first one's return promises the withdrawal.
     */
    @Operation(runOnce = true)
    public void cancel(@Param(name = "waiter") int i) {
        cancelRequested[i].set(true);
        waiters.cancel(i);
    }

    @Operation
    public int waiters() {
        return cv.waiterCount();
    }

    /**
     * After the scenario: the predicate becomes true and every waiter is woken and run; then the mutex is
     * free, nobody waits, and a waiter ended cancelled only if it was cancelled.
     */
    @Validate
    public void settle() {
        open = true;
        cv.signalAll();
        waiters.close();
        for (int i = 0; i < WAITERS; i++) {
            Outcome<?> o = waiters.outcome(i);
            if (!(o instanceof Outcome.Success<?> || o instanceof Outcome.Cancelled<?> && cancelRequested[i].get())) {
                throw new AssertionError("waiter " + i + " ended " + o);
            }
        }
        if (mutex.isLocked() || cv.waiterCount() != 0) {
            throw new AssertionError("left behind: " + mutex + ", " + cv);
        }
    }

    @Test
    @Tag("stress") // on the method: a JUnit annotation on this public class would trip -Xlint:exports
    void modelCheck() {
        LincheckOptions.check(ConditionVariableLincheckTest.class, Spec.class);
    }

    /** The sequential specification: the waiters still waiting, oldest first. */
    public static final class Spec {
        private final Deque<Integer> waiting = new ArrayDeque<>(List.of(0, 1, 2));

        public void signal() {
            waiting.pollFirst();
        }

        public void signalAll() {
            waiting.clear();
        }

        public void cancel(int i) {
            waiting.remove(i);
        }

        public int waiters() {
            return waiting.size();
        }
    }
}
