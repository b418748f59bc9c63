package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Strand;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;

/**
 * A waiting operation in a primitive's {@link WaitQueue}, when the waiting continuation cannot be queued
 * itself: an alternative of a choose (it names the shared {@link Pick} and its alternative number), a
 * blocked give (it carries the value), or a {@code send} (value only, nobody to resume).
 *
 * <p>A plain blocked take or read queues its {@link Cont} directly, allocation-free; {@link #pickOf} and
 * {@link #contOf} read either kind of entry.
 *
 * @param <A> the type of the carried value
 */
final class Waiter<A> extends Work {
    /** The continuation to resume: the committed branch's, or a blocked giver's; null for a send. */
    final Cont<?> k;
    /** The choose this waiter is an alternative of; null for a plain operation. */
    final Pick pick;
    /** The alternative number within {@link #pick}. */
    final int index;
    /** The value a giver offers; null for takers and readers. */
    final A value;

    Waiter(Cont<?> k, Pick pick, int index, A value) {
        this.k = k;
        this.pick = pick;
        this.index = index;
        this.value = value;
    }

    /** The pick of a queue entry, or null for a plain one. */
    static Pick pickOf(Work e) {
        return e instanceof Waiter<?> n ? n.pick : null;
    }

    /** The continuation of a queue entry (null for a send). */
    static Cont<?> contOf(Work e) {
        return e instanceof Waiter<?> n ? n.k : (Cont<?>) e;
    }

    /** The alternative number of a queue entry (0 for a plain one). */
    static int indexOf(Work e) {
        return e instanceof Waiter<?> n ? n.index : 0;
    }

    /** Whether an entry belongs to a choose that has been decided: nobody can commit it any more. */
    static boolean isStale(Work e) {
        return e instanceof Waiter<?> n && n.pick != null && n.pick.isPicked();
    }

    /** Whether an entry waits on behalf of {@code fiber} (a send waits for nobody). */
    static boolean isOf(Work e, Strand<?> fiber) {
        Cont<?> k = contOf(e);
        return k != null && k.fiber == fiber;
    }

    /**
     * Commits {@code e} for a partner outside any choose (a fill, a send, a put): true when the entry is now
     * ours to resume (a plain entry, or a choose entry whose pick this call won), false when its choose
     * went another way (the entry is stale).
     */
    static boolean commit(Work e) {
        Pick p = pickOf(e);
        return p == null || Pick.commit(null, 0, p, indexOf(e)) == Pick.COMMITTED;
    }

    /**
     * Completes a committed entry with {@code value}: fires its choose's negative acknowledgements (if it
     * belongs to one), then resumes it. Outside the lock.
     */
    static void release(Worker w, Work e, Object value) {
        Pick p = pickOf(e);
        if (p != null) {
            p.fireListeners(w);
        }
        resume(w, e, value);
    }

    /** {@link #release}'s failing twin: completes a committed entry with the failure {@code error}. */
    static void releaseFailed(Worker w, Work e, Throwable error) {
        Pick p = pickOf(e);
        if (p != null) {
            p.fireListeners(w);
        }
        resumeFailed(w, e, error);
    }

    /**
     * Resumes a committed entry with {@code value}: through its pick's hand-over, or by pushing a plain
     * continuation. The caller has committed the entry's pick (if any) and fired its listeners.
     */
    static void resume(Worker w, Work e, Object value) {
        Cont<?> k = contOf(e);
        if (k == null) {
            return;
        }
        setValue(k, value);
        Pick p = pickOf(e);
        if (p != null) {
            p.resume(w, k);
        } else {
            w.pushWake(k.fiber, k);
        }
    }

    /** Resumes a committed entry with the failure {@code error}. */
    static void resumeFailed(Worker w, Work e, Throwable error) {
        Cont<?> k = contOf(e);
        if (k == null) {
            return;
        }
        Work fail = new Jobs.FailWork(k, error);
        Pick p = pickOf(e);
        if (p != null) {
            p.resume(w, fail);
        } else {
            w.pushWake(k.fiber, fail);
        }
    }

    @SuppressWarnings("unchecked")
    static void setValue(Cont<?> k, Object value) {
        ((Cont<Object>) k).value = value;
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
