package dev.spindle.internal.select;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.FailWork;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;

/**
 * A waiting operation in a primitive's {@link WaitQueue}, when the waiting continuation cannot be queued
 * itself: an alternative of a choose (it names the shared {@link Pick} and its alternative number), a
 * blocked give whose continuation has no free slot for the value (it carries the value), or a
 * {@code send} (value only, nobody to resume).
 *
 * <p>A queue holds three kinds of entries: a plain blocked operation of a fiber queues its {@link Cont}
 * directly, allocation-free (a give then carries its value in the continuation's resume slot, see
 * {@link #valueOf}); an ordinary thread queues a {@link ThreadWaiter}; everything else is a
 * Waiter. The static helpers here read, commit and resume any kind of entry, from a worker or from an
 * ordinary thread ({@code w == null}).
 *
 * @param <A> the type of the carried value
 */
public final class Waiter<A> extends Work {
    /** The continuation to resume: the committed branch's, or a blocked giver's; null for a send. */
    public final Cont<?> k;
    /** The choose this waiter is an alternative of; null for a plain operation. */
    public final Pick pick;
    /** The alternative number within {@link #pick}. */
    public final int index;
    /** The value a giver offers; null for takers and readers. */
    public final A value;

    /** An entry resuming {@code k} (may be null), alternative {@code index} of {@code pick} (may be null). */
    public Waiter(Cont<?> k, Pick pick, int index, A value) {
        this.k = k;
        this.pick = pick;
        this.index = index;
        this.value = value;
    }

    /** The pick of a queue entry, or null for a plain one. */
    public static Pick pickOf(Work e) {
        return e instanceof Waiter<?> n ? n.pick : null;
    }

    /** The continuation of a queue entry (null for a send). */
    public static Cont<?> contOf(Work e) {
        return e instanceof Waiter<?> n ? n.k : (Cont<?>) e;
    }

    /** Who waits as entry {@code e}: its fiber, or the thread of a {@link ThreadWaiter}; null for a send. */
    public static Object identityOf(Work e) {
        Cont<?> k = contOf(e);
        return k instanceof ThreadWaiter t ? t.thread() : k == null ? null : k.fiber();
    }

    /**
     * The value a giver entry offers: a Waiter's, or what a plain blocked give's continuation carries in
     * its resume-value slot until it is resumed (read it before {@link #release}, which clears the slot).
     */
    @SuppressWarnings("unchecked")
    public static <A> A valueOf(Work e) {
        return e instanceof Waiter<?> n ? (A) n.value : (A) ((Cont<?>) e).resumeValue();
    }

    /** The alternative number of a queue entry (0 for a plain one). */
    public static int indexOf(Work e) {
        return e instanceof Waiter<?> n ? n.index : 0;
    }

    /** Whether an entry belongs to a choose that has been decided: nobody can commit it any more. */
    public static boolean isStale(Work e) {
        return e instanceof Waiter<?> n && n.pick != null && n.pick.isPicked();
    }

    /** Whether an entry waits on behalf of {@code fiber} (a send waits for nobody). */
    public static boolean isOf(Work e, FiberBase<?> fiber) {
        Cont<?> k = contOf(e);
        return k != null && k.fiber() == fiber;
    }

    /**
     * Commits {@code e} for a partner outside any choose (a fill, a send, a put): true when the entry is now
     * ours to resume (a plain entry, or a choose entry whose pick this call won), false when its choose
     * went another way (the entry is stale).
     */
    public static boolean commit(Work e) {
        Pick p = pickOf(e);
        return p == null || Pick.commit(null, 0, p, indexOf(e)) == Pick.Commit.COMMITTED;
    }

    /**
     * Completes a committed entry with {@code value}: fires its choose's negative acknowledgements (if it
     * belongs to one), then resumes it. Outside the lock.
     */
    public static void release(Worker w, Work e, Object value) {
        fireListenersOf(w, e);
        resume(w, e, value);
    }

    /**
     * Commits and releases with {@code value} every entry of {@code chain} (oldest first, linked through
     * next and null-terminated, as {@link WaitQueue#drain} gives it), skipping the stale ones: a fill, a
     * manual signal. Outside the lock.
     */
    public static void releaseAll(Worker w, Work chain, Object value) {
        while (chain != null) {
            Work e = chain;
            chain = e.queueLink();
            e.setQueueLink(null);
            if (commit(e)) {
                release(w, e, value);
            }
        }
    }

    /** {@link #release}'s failing twin: completes a committed entry with the failure {@code error}. */
    public static void releaseFailed(Worker w, Work e, Throwable error) {
        fireListenersOf(w, e);
        resumeFailed(w, e, error);
    }

    /** Fires the negative acknowledgements of a committed entry's choose, if it belongs to one. */
    private static void fireListenersOf(Worker w, Work e) {
        Pick p = pickOf(e);
        if (p != null) {
            p.fireListeners(w);
        }
    }

    /**
     * Resumes a committed entry with {@code value}: through its pick's hand-over, or by pushing a plain
     * continuation. The caller has committed the entry's pick (if any) and fired its listeners.
     */
    public static void resume(Worker w, Work e, Object value) {
        Cont<?> k = contOf(e);
        if (k == null) {
            return;
        }
        if (k instanceof ThreadWaiter t) {
            t.wake(value);
            return;
        }
        setValue(k, value);
        Pick p = pickOf(e);
        if (p != null) {
            p.resume(w, k);
        } else {
            wake(w, k.fiber(), k);
        }
    }

    /** Resumes a committed entry with the failure {@code error}. */
    public static void resumeFailed(Worker w, Work e, Throwable error) {
        Cont<?> k = contOf(e);
        if (k == null) {
            return;
        }
        assert !(k instanceof ThreadWaiter) : "threads wait only where waits do not fail";
        Work fail = new FailWork(k, error);
        Pick p = pickOf(e);
        if (p != null) {
            p.resume(w, fail);
        } else {
            wake(w, k.fiber(), fail);
        }
    }

    /**
     * Schedules {@code wk}, the resumption of {@code fiber}: on the waker's worker {@code w} when it runs
     * the fiber's engine, else on that engine (its global queue, or the calling worker's stack when the
     * caller is one of its workers). {@code w} is null when the waker is an ordinary thread.
     */
    public static void wake(Worker w, FiberBase<?> fiber, Work wk) {
        if (w != null) {
            w.pushWake(fiber, wk);
        } else {
            fiber.engine().enqueue(wk);
        }
    }

    @SuppressWarnings("unchecked")
    public static void setValue(Cont<?> k, Object value) {
        ((Cont<Object>) k).setResumeValue(value);
    }

    @Override
    public void doWork(Worker w) {
        throw new IllegalStateException("a queue waiter is not a runnable work item");
    }

    @Override
    public void doHandle(Worker w, Throwable e) {
        throw new IllegalStateException("a queue waiter is not a runnable work item", e);
    }
}
