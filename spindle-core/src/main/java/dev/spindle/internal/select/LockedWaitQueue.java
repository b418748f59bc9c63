package dev.spindle.internal.select;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.SpinLock;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Work;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A {@link WaitQueue} with its own spin lock, which by convention also guards the state of the primitive
 * that owns it (a count, a flag, the permits), and the {@link Blocker} through which cancellation withdraws
 * a plain fiber entry from it. For primitives that have no lock of their own (those of
 * {@code dev.spindle.sync}, the network): a primitive takes the lock, looks at its state, and either
 * changes it or links an entry, in one critical section of a few instructions.
 *
 * <p>Entries of a choose are never withdrawn here (their pick is the fiber's blocker; they go stale), and
 * a {@link ThreadWaiter} withdraws itself ({@link #withdraw}).
 */
public final class LockedWaitQueue extends WaitQueue implements Blocker {
    /** The primitive this queue belongs to: named in deadlock reports and fiber dumps. */
    private final Object owner;
    /** Spin lock word (0 free, 1 held): guards the entries and the owner's state. */
    private int lock;

    /** An empty queue of the primitive {@code owner}. */
    public LockedWaitQueue(Object owner) {
        this.owner = owner;
    }

    /** Takes the spin lock. Never call anything that may block or take another primitive's lock under it. */
    public void lock() {
        if (!LOCK.compareAndSet(this, 0, 1)) {
            SpinLock.lockSlow(LOCK, this);
        }
    }

    /** Releases the spin lock (a release store: what was written under it is visible to the next holder). */
    public void unlock() {
        LOCK.setRelease(this, 0);
    }

    /** Entries that can still be committed (stale alternatives excluded), taking the lock: for tests, dumps. */
    public int waiting() {
        lock();
        int n = live();
        unlock();
        return n;
    }

    /** Unlinks {@code entry} if it is still queued, taking the lock; true when this call did. */
    public boolean withdraw(Work entry) {
        lock();
        boolean removed = remove(entry);
        unlock();
        return removed;
    }

    /**
     * Blocks the fiber {@code self} as {@code entry} (its plain continuation): the caller holds the lock and
     * has found that it must wait. Links the entry, releases the lock, and withdraws the entry again at once
     * if cancellation arrived meanwhile. Callers return at once after it.
     */
    public void blockAndUnlock(dev.spindle.internal.run.Worker w, FiberBase<?> self, Cont<?> entry) {
        block(self, this, entry);
        unlock();
        blocked(w, self, this);
    }

    @Override
    public Cont<?> removeWaiter(FiberBase<?> fiber) {
        lock();
        Work e = removePlainOf(fiber);
        unlock();
        return e == null ? null : Waiter.contOf(e);
    }

    @Override
    public String describe() {
        return owner.toString();
    }

    @Override
    public String toString() {
        return "waiters of " + owner;
    }

    private static final VarHandle LOCK = SpinLock.handle(MethodHandles.lookup(), LockedWaitQueue.class, "lock");
}
