package dev.spindle.sync;

import dev.spindle.LincheckOptions;
import dev.spindle.Outcome;
import dev.spindle.ParkedFibers;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of a bounded {@link Pool} against a stack of free items and a queue of borrowers, by
 * Lincheck model checking. The pool has two places, both lent (items 1 and 2), and two fibers wait in
 * {@code borrow()} ({@link ParkedFibers}). Operations: {@code tryBorrow} (the top free item, or none),
 * {@code release} of a held item (handed to the oldest waiting borrower, else pushed), cancelling a
 * borrower (withdrawn if still waiting; a place handed to it stays in flight), {@code available} and the
 * number of waiters. {@link #settle} then runs the borrowers and checks that no item was lent twice and
 * that every place comes back.
 */
@Param(name = "borrower", gen = IntGen.class, conf = "0:1")
public class PoolLincheckTest {
    private static final int CAPACITY = 2;

    private final AtomicInteger made = new AtomicInteger();
    private final Pool<Integer> pool = Pool.bounded(CAPACITY, made::incrementAndGet);
    /** The loans this test holds, by item. */
    private final AtomicReferenceArray<Pool.Loan<Integer>> loans = new AtomicReferenceArray<>(CAPACITY + 1);
    private final AtomicBoolean[] cancelRequested = {new AtomicBoolean(), new AtomicBoolean()};
    private final ParkedFibers borrowers = new ParkedFibers();

    public PoolLincheckTest() {
        for (int i = 0; i < CAPACITY; i++) {
            keep(pool.tryBorrow());
        }
        for (int i = 0; i < cancelRequested.length; i++) {
            int waiting = i + 1;
            borrowers.park(pool.borrow(), () -> pool.waiterCount() == waiting);
        }
    }

    private Integer keep(Pool.Loan<Integer> loan) {
        if (loan == null) {
            return null;
        }
        loans.set(loan.get(), loan);
        return loan.get();
    }

    @Operation
    public Integer tryBorrow() {
        return keep(pool.tryBorrow());
    }

    /** Item 1's releases run in one thread (as do item 2's): the test's own book of loans is not atomic. */
    @Operation(nonParallelGroup = "item1")
    public boolean release1() {
        return release(1);
    }

    @Operation(nonParallelGroup = "item2")
    public boolean release2() {
        return release(2);
    }

    private boolean release(int item) {
        Pool.Loan<Integer> loan = loans.getAndSet(item, null);
        if (loan == null) {
            return false;
        }
        loan.release();
        return true;
    }

    /**
     * Once per scenario: a second, concurrent request returns at once (the flag is already set) while the
     * first may still be withdrawing the fiber, so only the first one's return promises the withdrawal.
     */
    @Operation(runOnce = true)
    public void cancel(@Param(name = "borrower") int i) {
        cancelRequested[i].set(true);
        borrowers.cancel(i);
    }

    @Operation
    public int available() {
        return pool.available();
    }

    @Operation
    public int waiters() {
        return pool.waiterCount();
    }

    /**
     * After the scenario: releases the held items (every borrower still waiting gets one), runs the
     * borrowers, and checks that a borrower ended cancelled only if it was cancelled (else with a loan),
     * that no item is lent twice, and that with everything released both items are free again.
     */
    @Validate
    public void settle() {
        List<Pool.Loan<Integer>> lent = new ArrayList<>();
        for (int item = 1; item <= CAPACITY; item++) {
            Pool.Loan<Integer> loan = loans.getAndSet(item, null);
            if (loan != null) {
                lent.add(loan);
            }
        }
        for (Pool.Loan<Integer> loan : lent) {
            loan.release();
        }
        borrowers.close();
        Set<Integer> items = new HashSet<>();
        for (int i = 0; i < cancelRequested.length; i++) {
            Outcome<?> o = borrowers.outcome(i);
            if (o instanceof Outcome.Success<?> s) {
                Pool.Loan<?> loan = (Pool.Loan<?>) s.value();
                check(items.add((Integer) loan.get()), "item " + loan.get() + " lent twice");
                loan.release();
            } else {
                check(o instanceof Outcome.Cancelled<?> && cancelRequested[i].get(),
                        "borrower " + i + " ended " + o + " without a loan");
            }
        }
        check(pool.available() == CAPACITY && pool.waiterCount() == 0 && made.get() == CAPACITY,
                "after everything came back: " + pool + ", items made " + made.get());
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    @Test
    @Tag("stress") // on the method: a JUnit annotation on this public class would trip -Xlint:exports
    void modelCheck() {
        LincheckOptions.check(PoolLincheckTest.class, Spec.class);
    }

    /** The sequential specification: free items (a stack), held items, waiting borrowers (a queue). */
    public static final class Spec {
        private final Deque<Integer> free = new ArrayDeque<>();
        private final Set<Integer> held = new HashSet<>(List.of(1, 2));
        private final Deque<Integer> waiting = new ArrayDeque<>(List.of(0, 1));

        public Integer tryBorrow() {
            Integer item = free.pollFirst();
            if (item != null) {
                held.add(item);
            }
            return item;
        }

        public boolean release1() {
            return release(1);
        }

        public boolean release2() {
            return release(2);
        }

        private boolean release(int item) {
            if (!held.remove(item)) {
                return false;
            }
            if (waiting.pollFirst() == null) {
                free.addFirst(item);
            }
            return true;
        }

        public void cancel(int i) {
            waiting.remove(i);
        }

        public int available() {
            return free.size();
        }

        public int waiters() {
            return waiting.size();
        }
    }
}
