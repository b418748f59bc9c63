package dev.spindle.internal.run;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The timers of one engine: a binary min-heap by deadline, and a thread that queues due timers.
 *
 * <pre>
 * Implementation overview
 * =======================
 * Overview
 *   Timers sit in an array heap; each knows its index, so removal (a cancelled sleep) is O(log n) and
 *   frees the slot at once: a cancelled timer costs nothing afterwards. The timer thread sleeps until the
 *   earliest deadline, then unlinks every due timer under the lock, chains their work items through
 *   Work.next and hands the whole chain to the engine's global queue in one append, waking a worker.
 *   Scheduling a timer earlier than the one the thread sleeps for unparks the thread.
 *
 * Cost
 *   A million sleepers cost a Timer (32 bytes) and a heap slot each. The lock covers one sift.
 *   The thread starts with the first timer and stops with the engine.
 *
 * INV: heap[i].heapIndex == i for i < size; heap[(i-1)/2].deadline <= heap[i].deadline.
 * </pre>
 */
public final class TimerQueue {
    final Engine engine;
    /** Guards heap, size, sleepingUntil. */
    private int lock;
    private Timer[] heap = new Timer[64];
    private int size;
    /** Deadline the timer thread sleeps until (Long.MAX_VALUE: indefinitely). Guarded by lock. */
    private long sleepingUntil = Long.MAX_VALUE;
    /** The timer thread, once started. Written under lock. */
    private Thread thread;
    private volatile boolean stopped;

    TimerQueue(Engine engine) {
        this.engine = engine;
    }

    /** Arms {@code t}. */
    public void schedule(Timer t) {
        boolean wake = false;
        SpinLock.lock(LOCK, this);
        if (stopped) {
            SpinLock.unlock(LOCK, this);
            throw new IllegalStateException("scheduler " + engine + " is closed");
        }
        if (size == heap.length) {
            heap = java.util.Arrays.copyOf(heap, size * 2);
        }
        siftUp(size++, t);
        if (t.heapIndex == 0 && t.deadline < sleepingUntil) {
            sleepingUntil = t.deadline;
            wake = true;
        }
        if (engine.isDriven()) {
            SpinLock.unlock(LOCK, this); // the driver takes due timers itself
            return;
        }
        Thread th = thread;
        boolean start = th == null;
        if (start) {
            th = thread = newThread();
        }
        SpinLock.unlock(LOCK, this);
        if (start) {
            th.start(); // exactly one caller created it; it reads the heap when it runs
        } else if (wake) {
            LockSupport.unpark(th);
        }
    }

    /** Removes {@code t} if still pending; true when this call removed it. */
    boolean remove(Timer t) {
        SpinLock.lock(LOCK, this);
        int i = t.heapIndex;
        if (i < 0) {
            SpinLock.unlock(LOCK, this);
            return false;
        }
        removeAt(i);
        SpinLock.unlock(LOCK, this);
        return true;
    }

    /** Pending timers. */
    public int size() {
        SpinLock.lock(LOCK, this);
        int n = size;
        SpinLock.unlock(LOCK, this);
        return n;
    }

    /** The earliest pending deadline, or Long.MAX_VALUE when none. */
    public long nextDeadline() {
        SpinLock.lock(LOCK, this);
        long d = size == 0 ? Long.MAX_VALUE : heap[0].deadline;
        SpinLock.unlock(LOCK, this);
        return d;
    }

    /**
     * Unlinks every timer due at {@code now} and returns their work chained through next (earliest first),
     * or null. The caller queues the chain.
     */
    public Work takeDue(long now) {
        Work first = null;
        Work last = null;
        SpinLock.lock(LOCK, this);
        while (size > 0 && heap[0].deadline - now <= 0) {
            Timer t = heap[0];
            removeAt(0);
            Work wk = t.work;
            wk.next = null;
            if (first == null) {
                first = wk;
            } else {
                last.next = wk;
            }
            last = wk;
        }
        SpinLock.unlock(LOCK, this);
        return first;
    }

    void stop() {
        stopped = true;
        Thread th;
        SpinLock.lock(LOCK, this);
        th = thread;
        SpinLock.unlock(LOCK, this);
        if (th != null) {
            LockSupport.unpark(th);
        }
    }

    private Thread newThread() {
        Thread th = new Thread(this::runTimers, engine + "-timers");
        th.setDaemon(true);
        return th;
    }

    private void runTimers() {
        while (!stopped) {
            long now = engine.nanoTime();
            Work first = takeDue(now);
            if (first != null) {
                Work last = first;
                while (last.next != null) {
                    last = last.next;
                }
                engine.pushGlobalChain(first, last);
            }
            long next;
            SpinLock.lock(LOCK, this);
            next = size == 0 ? Long.MAX_VALUE : heap[0].deadline;
            sleepingUntil = next;
            SpinLock.unlock(LOCK, this);
            if (stopped) {
                return;
            }
            if (next == Long.MAX_VALUE) {
                LockSupport.park(this);
            } else {
                long delay = next - engine.nanoTime();
                if (delay > 0) {
                    LockSupport.parkNanos(this, delay);
                }
            }
        }
    }

    // ---------------------------------------------------------------- heap (caller holds lock)

    private void siftUp(int i, Timer t) {
        Timer[] h = heap;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Timer p = h[parent];
            if (p.deadline - t.deadline <= 0) {
                break;
            }
            h[i] = p;
            p.heapIndex = i;
            i = parent;
        }
        h[i] = t;
        t.heapIndex = i;
    }

    private void siftDown(int i, Timer t) {
        Timer[] h = heap;
        int n = size;
        int half = n >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            Timer c = h[child];
            int right = child + 1;
            if (right < n && h[right].deadline - c.deadline < 0) {
                child = right;
                c = h[child];
            }
            if (t.deadline - c.deadline <= 0) {
                break;
            }
            h[i] = c;
            c.heapIndex = i;
            i = child;
        }
        h[i] = t;
        t.heapIndex = i;
    }

    private void removeAt(int i) {
        Timer[] h = heap;
        Timer removed = h[i];
        removed.heapIndex = -1;
        int last = --size;
        Timer moved = h[last];
        h[last] = null;
        if (last != i) {
            siftDown(i, moved);
            if (h[i] == moved) {
                siftUp(i, moved);
            }
        }
    }

    private static final VarHandle LOCK = SpinLock.handle(MethodHandles.lookup(), TimerQueue.class, "lock");
}
