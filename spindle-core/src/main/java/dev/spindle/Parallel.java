package dev.spindle;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.DroppedValues;
import dev.spindle.internal.run.FailWork;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.AbstractList;
import java.util.Collections;
import java.util.List;
import java.util.RandomAccess;

/**
 * Runs several jobs as child fibers of the current fiber and decides one outcome from theirs: the common
 * engine of {@code race}, {@code all} and {@code any}.
 *
 * <pre>
 * Implementation overview
 * =======================
 *   Each child gets a completion callback (a joiner continuation without a fiber). Callbacks may run
 *   concurrently on different workers. The first callback that settles the result (CAS on decided)
 *   requests cancellation of the other children; the parent continuation is resumed only when every
 *   child has finished (remaining reaches 0), so losers' finalizers have run before the combinator
 *   returns.
 *
 *   Cancellation of the parent reaches the children through the cancellation tree; they end Cancelled,
 *   the policy settles on "cancelled", and the parent continuation receives the cancel signal.
 *
 *   Values of children that succeeded but whose outcome is not given (a race's loser that finished
 *   anyway, the rest of an all that failed) go to DroppedValues, so a connection a loser made is closed.
 *
 * Memory ordering
 *   Each child's outcome is read from its fiber after it is done (its state is volatile). The decided
 *   outcome is written by the settling callback after its CAS of decided, and before that callback's own
 *   decrement of remaining; the last finisher reads it after its decrement, which comes later in the
 *   chain of atomic decrements, so it sees the write (spindle-jcstress ParallelSettle).
 * </pre>
 *
 * @param <A> type of each child's value
 * @param <R> type of the combined value
 */
final class Parallel<A, R> extends Job<R> {
    static {
        // all's values, dropped by a step whose fiber was cancelled as they were given
        DroppedValues.register(Values.class, v -> ((Values<?>) v).forEach(DroppedValues::release));
    }

    /** How children's outcomes combine. */
    enum Policy {
        /** First outcome of any kind decides (race). */
        FIRST,
        /** All must succeed; first failure or cancellation decides (all). */
        ALL,
        /** First success decides; all failures fail with the first, others suppressed (any). */
        ANY
    }

    private final List<? extends Job<? extends A>> jobs;
    private final Policy policy;

    Parallel(List<? extends Job<? extends A>> jobs, Policy policy) {
        this.jobs = jobs;
        this.policy = policy;
    }

    @Override
    void doJob(Worker w, Cont<R> k) {
        int n = jobs.size();
        if (n == 0) {
            if (policy == Policy.ALL) {
                @SuppressWarnings("unchecked")
                R empty = (R) Collections.emptyList();
                Trampoline.succeed(w, k, empty);
            } else {
                Trampoline.fail(w, k, new IllegalArgumentException(policy == Policy.ANY
                        ? "Job.any of no jobs has no outcome" : "a race needs at least one job"));
            }
            return;
        }
        FiberImpl<?> parent = (FiberImpl<?>) k.fiber();
        if (parent.cancelPending()) {
            Trampoline.fail(w, k, CancelSignal.INSTANCE);
            return;
        }
        new Run<A, R>(policy, k, n).start(w, parent, jobs);
    }

    /** One running instance. */
    static final class Run<A, R> implements Blocker {
        private final Policy policy;
        private final Cont<R> k;
        @SuppressWarnings("unchecked")
        private final FiberImpl<A>[] children;
        /** Children not yet finished. Atomic. */
        private volatile int remaining;
        /** 0 until an outcome is settled, then 1. CAS. */
        private volatile int decided;
        /** The settled outcome: index of the winner (FIRST/ANY), or -1 for a failure/cancellation. */
        private int winner = -1;
        /** The settling failure, or the cancel signal. */
        private Throwable failure;

        @SuppressWarnings("unchecked")
        Run(Policy policy, Cont<R> k, int n) {
            this.policy = policy;
            this.k = k;
            this.children = (FiberImpl<A>[]) new FiberImpl<?>[n];
            this.remaining = n;
        }

        void start(Worker w, FiberImpl<?> parent, List<? extends Job<? extends A>> jobs) {
            parent.blockOn(this); // for reports; cancellation reaches the children through the tree
            int n = children.length;
            for (int i = 0; i < n; i++) {
                @SuppressWarnings("unchecked")
                Job<A> job = (Job<A>) jobs.get(i);
                FiberImpl<A> child = new FiberImpl<>(job, w.engine(), parent, false);
                children[i] = child;
                w.fiberStarted();
                parent.addChild(w, child);
            }
            // Callbacks are attached before any child runs. Children are scheduled in argument order
            // (the simulator's seed 0 runs them so; a LIFO worker stack runs the last one first).
            for (int i = 0; i < n; i++) {
                children[i].tryAddJoiner(new Done<>(this, i));
            }
            for (int i = 0; i < n; i++) {
                w.push(children[i]);
            }
        }

        void childDone(Worker w, int index) {
            FiberImpl<A> child = children[index];
            int state = child.stateNow();
            switch (policy) {
                case FIRST -> settle(w, index, state == FiberImpl.SUCCEEDED ? null : failureOf(child));
                case ALL -> {
                    if (state != FiberImpl.SUCCEEDED) {
                        settle(w, -1, failureOf(child));
                    }
                }
                case ANY -> {
                    if (state == FiberImpl.SUCCEEDED) {
                        settle(w, index, null);
                    } else if (state == FiberImpl.CANCELLED) {
                        settle(w, -1, CancelSignal.INSTANCE);
                    }
                }
            }
            if ((int) REMAINING.getAndAdd(this, -1) == 1) {
                finish(w);
            }
        }

        /** The parent waits here only for reports: cancelling it cancels the children, who resume it. */
        @Override
        public Cont<?> removeWaiter(FiberBase<?> fiber) {
            return null;
        }

        @Override
        public boolean waitsForChildren() {
            return true;
        }

        @Override
        public String describe() {
            String what = switch (policy) {
                case FIRST -> "race";
                case ALL -> "all";
                case ANY -> "any";
            };
            return what + " of " + children.length + " children, " + remaining + " running";
        }

        private static Throwable failureOf(FiberImpl<?> child) {
            return child.stateNow() == FiberImpl.CANCELLED
                    ? CancelSignal.INSTANCE : child.failureForJoiner();
        }

        /** Settles the outcome once; the first caller cancels the other children. */
        private void settle(Worker w, int winnerIndex, Throwable error) {
            if (decided != 0 || !DECIDED.compareAndSet(this, 0, 1)) {
                return;
            }
            winner = winnerIndex;
            failure = error;
            for (int i = 0; i < children.length; i++) {
                if (i != winnerIndex) {
                    children[i].requestCancel(w);
                }
            }
        }

        private void finish(Worker w) {
            Throwable error = failure;
            if (decided == 0) {
                // ALL: every child succeeded; ANY: every child failed.
                if (policy == Policy.ALL) {
                    resume(w, allValues(), null);
                } else {
                    resume(w, null, combinedFailures());
                }
            } else if (error != null) {
                releaseValuesExcept(-1);
                resume(w, null, error);
            } else {
                releaseValuesExcept(winner);
                resume(w, winnerValue(), null);
            }
        }

        /** Hands the values of succeeded children other than {@code given} to {@link DroppedValues}. */
        private void releaseValuesExcept(int given) {
            for (int i = 0; i < children.length; i++) {
                if (i != given && children[i].stateNow() == FiberImpl.SUCCEEDED) {
                    DroppedValues.release(children[i].valueNow());
                }
            }
        }

        @SuppressWarnings("unchecked")
        private R allValues() {
            Object[] values = new Object[children.length];
            for (int i = 0; i < values.length; i++) {
                values[i] = children[i].valueNow();
            }
            return (R) new Values<>(values);
        }

        @SuppressWarnings("unchecked")
        private R winnerValue() {
            A v = children[winner].valueNow();
            if (policy == Policy.FIRST) {
                return (R) (winner == 0 ? new Either.Left<>(v) : new Either.Right<>(v));
            }
            return (R) v;
        }

        private Throwable combinedFailures() {
            Throwable first = null;
            for (FiberImpl<A> c : children) {
                Throwable e = c.failureForJoiner();
                if (first == null) {
                    first = e;
                } else if (e != first) {
                    first.addSuppressed(e);
                }
            }
            return first;
        }

        private void resume(Worker w, R value, Throwable error) {
            if (error == null) {
                k.setResumeValue(value);
                w.pushWake(k.fiber(), k);
            } else {
                w.pushWake(k.fiber(), new FailWork(k, error));
            }
        }

        private static final VarHandle REMAINING;
        private static final VarHandle DECIDED;

        static {
            MethodHandles.Lookup l = MethodHandles.lookup();
            try {
                REMAINING = l.findVarHandle(Run.class, "remaining", int.class);
                DECIDED = l.findVarHandle(Run.class, "decided", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /** The values {@code all} gives, in input order: an unmodifiable list that may hold nulls. */
    static final class Values<A> extends AbstractList<A> implements RandomAccess {
        private final Object[] values;

        Values(Object[] values) {
            this.values = values;
        }

        @Override
        @SuppressWarnings("unchecked")
        public A get(int index) {
            return (A) values[index];
        }

        @Override
        public int size() {
            return values.length;
        }
    }

    /** Completion callback of child {@code index}. */
    static final class Done<A> extends Callback<A> {
        private final Run<A, ?> run;
        private final int index;

        Done(Run<A, ?> run, int index) {
            this.run = run;
            this.index = index;
        }

        @Override
        void onDone(Worker w) {
            run.childDone(w, index);
        }
    }
}
