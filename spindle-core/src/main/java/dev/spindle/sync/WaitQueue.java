package dev.spindle.sync;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.SpinLock;
import dev.spindle.internal.run.Strand;
import dev.spindle.internal.run.WorkFifo;
import dev.spindle.internal.run.Worker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The lock and the FIFO of waiters behind every primitive of this package, and the {@link Blocker} that
 * cancellation uses to withdraw a fiber from it.
 *
 * <pre>
 * Implementation overview
 * =======================
 * Overview
 *   One spin lock (an int field, TTAS) guards the waiter list and, by convention, the state of the
 *   primitive that owns the queue (a count, a flag, the permits): a primitive takes this lock, looks at its
 *   state, and either changes it or links a waiter, in one critical section of a few instructions.
 *   Waiters are linked through Work.next into a circular list that holds its tail (WorkFifo): O(1)
 *   append and poll, O(n) removal of a given waiter (cancellation, timeout, interrupt).
 *
 * Kinds of entries
 *   entry                        | queued by                          | resumed by
 *   plain Cont of a fiber        | an untimed wait (await, lock, ...) | value = v; engine.submit(k): no allocation
 *   Waiter (this package's Cont) | timed waits, threads, CV, pools... | waiter.wake(v)
 *   A plain continuation cannot say which engine it belongs to, so the queue remembers the engine of its
 *   plain entries (plainEngine; all of them share it). A fiber of another engine arriving while plain
 *   entries of a first engine wait is wrapped in a ForeignWaiter that carries its engine. A primitive
 *   used by one scheduler (the normal case) never allocates to wait or to wake.
 *
 * Resuming
 *   A waker unlinks entries under the lock and resumes them after unlocking (resume() may unpark a
 *   thread or wake a worker: never under a spin lock). engine.submit(k) pushes onto the caller's own
 *   worker when the caller runs that engine's fibers (the woken fiber runs next there, Hopac-style),
 *   and onto the engine's global queue otherwise.
 *
 * Cancellation (Blocker)
 *   removeWaiter(fiber) unlinks the entry whose Cont.fiber is that fiber, under the lock. Waking also
 *   unlinks under the lock, so exactly one of the two gets any entry. Entries that must not be
 *   cancelled (a condition variable's re-lock of its mutex) have no fiber and are never matched.
 *
 * INV: plainCount == number of linked entries that are not Waiters; all of them belong to plainEngine.
 * INV: an entry is in at most one queue, and while it is, only this queue writes its next link.
 * </pre>
 */
final class WaitQueue extends WorkFifo implements Blocker {
    /** The primitive this queue belongs to: named in deadlock reports and fiber dumps. */
    private final Object owner;
    /** Spin lock word (0 free, 1 held); guards every field below and the owner's state. */
    private int lock;
    /** Entries that are plain fiber continuations. Guarded by lock. */
    private int plainCount;
    /** The engine every plain entry belongs to; meaningful while plainCount > 0. Guarded by lock. */
    private Engine plainEngine;

    WaitQueue(Object owner) {
        this.owner = owner;
    }

    // ---------------------------------------------------------------- lock

    void lock() {
        if (!LOCK.compareAndSet(this, 0, 1)) {
            SpinLock.lockSlow(LOCK, this);
        }
    }

    void unlock() {
        LOCK.setRelease(this, 0);
    }

    // ---------------------------------------------------------------- list (caller holds lock)

    /** Number of waiters, taking the lock: for tests and {@code toString}. */
    int waiting() {
        lock();
        int n = size();
        unlock();
        return n;
    }

    /** Appends a waiter node. */
    void addLocked(Waiter<?> n) {
        link(n);
    }

    /** Appends the continuation of a fiber running on {@code engine}. */
    void addFiberLocked(Cont<?> k, Engine engine) {
        if (k instanceof Waiter<?> n) {
            link(n);
            return;
        }
        if (plainCount == 0) {
            plainEngine = engine;
        }
        if (plainEngine == engine) {
            plainCount++;
            link(k);
        } else {
            link(new ForeignWaiter<>(k, engine)); // rare: the queue is shared by two schedulers
        }
    }

    /**
     * Removes and returns the oldest entry, or null. Resume it with {@link #resume} after unlocking,
     * passing {@link #plainEngineLocked()} read in the same critical section.
     */
    Cont<?> pollLocked() {
        return isEmpty() ? null : unlinkAfter((Cont<?>) tail());
    }

    /** Removes every entry and returns them oldest first, linked through next and null-terminated. */
    Cont<?> pollAllLocked() {
        plainCount = 0;
        return (Cont<?>) removeAll();
    }

    /** The engine of the plain entries taken in this critical section. */
    Engine plainEngineLocked() {
        return plainEngine;
    }

    /** Unlinks {@code entry} if it is still queued here; true when this call did. */
    boolean removeLocked(Cont<?> entry) {
        Cont<?> prev = (Cont<?>) tail();
        for (int n = size(); n > 0; n--) {
            Cont<?> e = (Cont<?>) prev.next;
            if (e == entry) {
                unlinkAfter(prev);
                return true;
            }
            prev = e;
        }
        return false;
    }

    /** Unlinks {@code entry} if still queued, taking the lock; true when this call did. */
    boolean remove(Cont<?> entry) {
        lock();
        boolean removed = removeLocked(entry);
        unlock();
        return removed;
    }

    // ---------------------------------------------------------------- waiting and waking

    /**
     * Blocks the fiber of {@code k} here, following the protocol of {@link Strand#blockOn}: the caller holds
     * the lock and has found that it must wait; this links {@code k}, releases the lock and withdraws the
     * waiter again at once if cancellation arrived meanwhile.
     */
    void blockLocked(Worker w, Cont<?> k) {
        Strand<?> s = k.fiber;
        if (s != null) {
            s.blockOn(this);
        }
        addFiberLocked(k, w.engine());
        unlock();
        if (s != null) {
            s.checkCancelWhileBlocked(w, this);
        }
    }

    /**
     * Resumes an entry taken from a queue with {@code v}; call after unlocking. {@code plainEngine} is the
     * queue's {@link #plainEngineLocked()} read when the entry was taken.
     */
    @SuppressWarnings("unchecked")
    static void resume(Cont<?> k, Object v, Engine plainEngine) {
        if (k instanceof Waiter<?> n) {
            n.wake(v);
        } else {
            Cont<Object> c = (Cont<Object>) k;
            c.value = v;
            plainEngine.submit(c);
        }
    }

    /** Resumes every entry of a chain from {@link #pollAllLocked()} with {@code v}; call after unlocking. */
    static void resumeAll(Cont<?> chain, Object v, Engine plainEngine) {
        Cont<?> k = chain;
        while (k != null) {
            Cont<?> next = (Cont<?>) k.next;
            k.next = null;
            resume(k, v, plainEngine);
            k = next;
        }
    }

    /** Who waits as {@code entry}: its fiber, or the thread of a {@link ThreadWaiter}. */
    static Object identityOf(Cont<?> entry) {
        return entry instanceof Waiter<?> n ? n.identity() : entry.fiber;
    }

    // ---------------------------------------------------------------- Blocker

    @Override
    public Cont<?> removeWaiter(Strand<?> fiber) {
        lock();
        Cont<?> prev = (Cont<?>) tail();
        for (int n = size(); n > 0; n--) {
            Cont<?> e = (Cont<?>) prev.next;
            if (e.fiber == fiber) {
                unlinkAfter(prev);
                unlock();
                return e;
            }
            prev = e;
        }
        unlock();
        return null;
    }

    @Override
    public String describe() {
        return owner.toString();
    }

    @Override
    public String toString() {
        return "waiters of " + owner;
    }

    // ---------------------------------------------------------------- links (caller holds lock)

    private void link(Cont<?> k) {
        append(k);
        assert plainCount >= 0 && plainCount <= size();
    }

    private Cont<?> unlinkAfter(Cont<?> prev) {
        Cont<?> e = (Cont<?>) removeAfter(prev);
        if (!(e instanceof Waiter<?>)) {
            plainCount--;
        }
        assert plainCount >= 0 && plainCount <= size();
        return e;
    }

    private static final VarHandle LOCK = SpinLock.handle(MethodHandles.lookup(), WaitQueue.class, "lock");
}
