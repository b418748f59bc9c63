package dev.spindle.internal.run;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The timers of one engine: a timing wheel for the next few seconds, a heap for later deadlines, and a
 * thread that queues due timers.
 *
 * <pre>
 * Implementation overview
 * =======================
 * Wheel
 *   Time is cut into ticks of 2^TICK_SHIFT ns (about 1 ms). The wheel has SLOTS slots; slot (tick & MASK)
 *   holds the timers whose deadline falls in that tick, in arming order, in an array (TimerSlot): a
 *   removal leaves a hole that a later compaction closes. Arming, removing (a cancelled sleep) and firing
 *   a timer are O(1) amortized, so a million sleepers cost no more per timer than a thousand. A bitmap of
 *   non-empty slots finds the next occupied slot in at most SLOTS/64 word reads.
 *   Why arrays and not linked lists: with a list, every pending timer references the next one armed in
 *   its tick, an object allocated far away in the heap. A young collection copying a million sleepers
 *   then follows those links from one random address to the next; with arrays it reaches each sleeper's
 *   objects from the fiber, next to each other. In a model of the timers benchmark (five small objects
 *   per sleeper, a million sleepers, G1) the young pauses copied about twice as many bytes per ms.
 *   INV: every wheel timer's tick lies in [cursor, cursor + SLOTS), so a slot never mixes two
 *        revolutions, and it sits in the slot of its deadline's tick: a timer armed when its tick had
 *        already passed (its caller read the clock just before the timer thread moved the cursor) gets
 *        the cursor's tick as its deadline, as it is due either way. So Timer.pos needs no slot number.
 *   INV: cursor <= the engine clock's current tick (it only ever moves to a "now" that has been read).
 *
 * Far heap
 *   A deadline at least SLOTS ticks past the cursor goes into a binary min-heap by deadline instead (a
 *   sleep of hours). When the cursor has advanced, takeDue moves the far timers that are now within reach
 *   into the wheel. The heap is usually empty, so its O(log n) costs nothing in the common case.
 *
 * Firing
 *   takeDue(now) unlinks every timer whose deadline has passed, slot by slot in tick order (arming order
 *   within a slot), and chains the timers themselves through Work.next: a fired timer is the work item
 *   that runs what it was armed with, so firing touches only timers. A simulator passes the exact next
 *   deadline, and takeDue never takes a timer whose deadline is still ahead, so virtual time stays exact.
 *
 * Timer thread (real-time engines)
 *   Sleeps until the earliest deadline, queues the due chain on the engine's global queue in one append
 *   and wakes a worker. Under a stream of timers it wakes at most once per COALESCE_NANOS: each wake-up
 *   costs a futex call here and a worker unpark, so coalescing trades at most COALESCE_NANOS (250 µs) of
 *   lateness for far fewer hand-offs (at most 4,000 a second, however many timers fall due). The bound
 *   is short so that a short sleep in a loop stays close to its length. Arming a timer that is due before
 *   the planned wake-up unparks the thread. The thread starts with the first timer and stops with the engine.
 *
 * Cost
 *   A Timer is 32 bytes, plus a reference in its slot's array (at most two while holes wait to be
 *   closed); the wheel is SLOTS references plus a bitmap, allocated with the first timer, and a slot's
 *   array, allocated when the slot is first used, is given back when it empties after a burst. The lock
 *   covers a few array and field updates.
 *
 * Timer.pos: an index in the array of the slot of its deadline's tick, Timer.farIndex(a heap index), or
 * NOT_PENDING.
 * </pre>
 */
public final class TimerQueue {
    /** A tick is 2^20 ns, about 1.05 ms. */
    static final int TICK_SHIFT = 20;
    /** Wheel slots: a horizon of about 4.3 s. A power of two and a multiple of 64. */
    static final int SLOTS = 4096;
    private static final int MASK = SLOTS - 1;
    /** The timer thread wakes at most once per this many ns while timers keep falling due (see above). */
    static final long COALESCE_NANOS = SystemProps.intProp("spindle.timerCoalesceMicros", 250) * 1000L;

    final Engine engine;
    /** Guards every field below. */
    private int lock;
    /** The slots (null: never used); allocated with the first timer. */
    private TimerSlot[] wheel;
    /** Bit s set iff wheel[s] holds a timer. */
    private long[] occupied;
    /** The earliest tick that may still hold a wheel timer. */
    private long cursor;
    private Timer[] far = new Timer[0];
    private int farSize;
    /** Pending timers, wheel and heap. */
    private int size;
    /** When the timer thread will next wake (Long.MAX_VALUE: only when unparked). */
    private long wakeAt = Long.MAX_VALUE;
    /** The timer thread does not wake before this (coalescing). */
    private long wakeFloor = Long.MIN_VALUE;
    /** The chain being collected by takeDue. */
    private Timer dueFirst;
    private Timer dueLast;
    /** The timer thread, once started. */
    private Thread thread;
    private volatile boolean stopped;
    /** Whether a timer thread wakes the engine ({@link Driver#hasTimerThread()}); else the driver takes due timers. */
    private final boolean timerThread;

    TimerQueue(Engine engine) {
        this.engine = engine;
        this.timerThread = engine.driver().hasTimerThread();
    }

    /** Arms {@code t}. */
    public void schedule(Timer t) {
        boolean wake = false;
        boolean mayBeEmpty = size == 0; // racy read: only decides whether to read the clock
        long nowTick = mayBeEmpty ? engine.nanoTime() >> TICK_SHIFT : 0;
        lock();
        if (stopped) {
            unlock();
            throw new IllegalStateException("scheduler " + engine + " is closed");
        }
        if (size++ == 0) {
            if (wheel == null) {
                wheel = new TimerSlot[SLOTS];
                occupied = new long[SLOTS / 64];
            }
            // Nothing pending, so no timer constrains the cursor; a tick read before the lock is <= now.
            // Without a reading (a racing schedule emptied the queue) the cursor stays at an earlier now:
            // still correct, later deadlines just go through the far heap.
            if (mayBeEmpty) {
                cursor = nowTick;
            }
        }
        insert(t);
        if (!timerThread) {
            unlock(); // the driver takes due timers itself
            return;
        }
        long plan = Math.max(t.deadline, wakeFloor);
        if (wakeAt == Long.MAX_VALUE || plan - wakeAt < 0) {
            wakeAt = plan;
            wake = true;
        }
        Thread th = thread;
        boolean start = th == null;
        if (start) {
            th = thread = newThread();
        }
        unlock();
        if (start) {
            th.start(); // exactly one caller created it; it reads the queue when it runs
        } else if (wake) {
            LockSupport.unpark(th);
        }
    }

    /** Removes {@code t}, armed on this queue, if still pending; true when this call removed it. */
    public boolean cancel(Timer t) {
        lock();
        int pos = t.pos;
        if (pos == Timer.NOT_PENDING) {
            unlock();
            return false;
        }
        if (pos >= 0) {
            unlink(t);
        } else {
            removeFar(Timer.farIndex(pos));
        }
        size--;
        unlock();
        return true;
    }

    /** Pending timers. */
    public int size() {
        lock();
        int n = size;
        unlock();
        return n;
    }

    /** The earliest pending deadline, or Long.MAX_VALUE when none. */
    public long nextDeadline() {
        lock();
        long d = nextDeadlineLocked();
        unlock();
        return d;
    }

    /**
     * Unlinks every timer due at {@code now} and returns them chained through next (in deadline-tick
     * order), or null. The caller queues the chain; each timer runs the work it was armed with.
     */
    public Work takeDue(long now) {
        lock();
        takeDueLocked(now);
        Work first = dueFirst;
        dueFirst = null;
        dueLast = null;
        unlock();
        return first;
    }

    void stop() {
        stopped = true;
        Thread th;
        lock();
        th = thread;
        unlock();
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
            long plan = fireDue();
            if (stopped) {
                return;
            }
            if (plan == Long.MAX_VALUE) {
                LockSupport.park(this);
            } else {
                long delay = plan - engine.nanoTime();
                if (delay > 0) {
                    LockSupport.parkNanos(this, delay);
                }
            }
        }
    }

    /**
     * Queues the due timers and returns when to wake next. A method of its own so that no reference to a
     * fired timer outlives it in the parked thread's frame: a fired sleeper's fiber links its older
     * siblings, so one stale reference could keep a whole generation of finished fibers reachable.
     */
    private long fireDue() {
        long now = engine.nanoTime();
        lock();
        takeDueLocked(now);
        Work first = dueFirst;
        Work last = dueLast;
        dueFirst = null;
        dueLast = null;
        long next = nextDeadlineLocked();
        wakeFloor = first != null ? now + COALESCE_NANOS : Long.MIN_VALUE;
        long plan = next == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(next, wakeFloor);
        wakeAt = plan;
        unlock();
        if (first != null) {
            engine.pushGlobalChain(first, last);
        }
        return plan;
    }

    // ---------------------------------------------------------------- caller holds lock

    private void insert(Timer t) {
        long tick = t.deadline >> TICK_SHIFT;
        long ahead = tick - cursor;
        if (ahead >= SLOTS) {
            addFar(t);
        } else {
            if (ahead < 0) {
                t.deadline = cursor << TICK_SHIFT; // due already; now in the slot of its deadline (INV)
                tick = cursor;
            }
            link(t, slotOf(tick));
        }
    }

    private long nextDeadlineLocked() {
        if (size == 0) {
            return Long.MAX_VALUE;
        }
        long offset = firstOccupied(cursor, cursor + MASK);
        if (offset < 0) {
            return far[0].deadline; // size > 0, so the heap holds a timer
        }
        long best = wheel[(int) ((cursor + offset) & MASK)].earliestDeadline();
        return farSize > 0 && far[0].deadline - best < 0 ? far[0].deadline : best;
    }

    /** Appends every timer due at {@code now} to dueFirst..dueLast. */
    private void takeDueLocked(long now) {
        if (size == 0) {
            return;
        }
        long nowTick = now >> TICK_SHIFT;
        if (nowTick - cursor >= 0) {
            long end = nowTick - cursor >= SLOTS ? cursor + MASK : nowTick;
            for (long from = cursor; from - end <= 0; ) {
                long offset = firstOccupied(from, end);
                if (offset < 0) {
                    break;
                }
                long tick = from + offset;
                takeDueFromSlot((int) (tick & MASK), now);
                from = tick + 1;
            }
            cursor = nowTick; // every timer left in the wheel is due after now, so its tick is >= nowTick
        }
        while (farSize > 0 && (far[0].deadline >> TICK_SHIFT) - cursor < SLOTS) {
            Timer t = far[0];
            removeFar(0);
            if (t.deadline - now <= 0) {
                appendDue(t);
            } else {
                link(t, slotOf(t.deadline >> TICK_SHIFT));
            }
        }
    }

    /** Moves the due timers of slot {@code s} to the due chain; the others stay, in order. */
    private void takeDueFromSlot(int s, long now) {
        TimerSlot slot = wheel[s];
        slot.takeDue(now, this);
        if (slot.isEmpty()) {
            occupied[s >>> 6] &= ~(1L << s);
        }
    }

    /** Called by {@link TimerSlot#takeDue} for each due timer, which it has already let go of. */
    void appendDue(Timer t) {
        t.pos = Timer.NOT_PENDING;
        size--;
        t.next = null;
        if (dueFirst == null) {
            dueFirst = t;
        } else {
            dueLast.next = t;
        }
        dueLast = t;
    }

    /**
     * The offset from {@code from} of the first occupied slot among ticks {@code from..to} (inclusive,
     * fewer than SLOTS apart), or -1.
     */
    private long firstOccupied(long from, long to) {
        long span = to - from;
        long offset = 0;
        while (offset <= span) {
            int s = (int) ((from + offset) & MASK);
            long bits = occupied[s >>> 6] >>> s; // shifts by s & 63: the bits from s to the word's end
            if (bits != 0) {
                offset += Long.numberOfTrailingZeros(bits);
                return offset <= span ? offset : -1;
            }
            offset += 64 - (s & 63);
        }
        return -1;
    }

    /** Appends {@code t} to slot {@code s}. */
    private void link(Timer t, int s) {
        TimerSlot slot = wheel[s];
        if (slot == null) {
            slot = wheel[s] = new TimerSlot();
        }
        if (slot.isEmpty()) {
            occupied[s >>> 6] |= 1L << s;
        }
        slot.add(t);
    }

    private void unlink(Timer t) {
        int s = slotOf(t.deadline >> TICK_SHIFT);
        TimerSlot slot = wheel[s];
        slot.remove(t);
        if (slot.isEmpty()) {
            occupied[s >>> 6] &= ~(1L << s);
        }
        t.pos = Timer.NOT_PENDING;
    }

    private static int slotOf(long tick) {
        return (int) (tick & MASK);
    }

    // ---------------------------------------------------------------- far heap
    // INV: far[i].pos == Timer.farIndex(i) for i < farSize; far[(i-1)/2].deadline <= far[i].deadline.

    private void addFar(Timer t) {
        if (farSize == far.length) {
            far = java.util.Arrays.copyOf(far, Math.max(16, farSize * 2));
        }
        siftUp(farSize++, t);
    }

    private void removeFar(int i) {
        Timer[] h = far;
        h[i].pos = Timer.NOT_PENDING;
        int last = --farSize;
        Timer moved = h[last];
        h[last] = null;
        if (last != i) {
            siftDown(i, moved);
            if (h[i] == moved) {
                siftUp(i, moved);
            }
        }
    }

    private void siftUp(int i, Timer t) {
        Timer[] h = far;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Timer p = h[parent];
            if (p.deadline - t.deadline <= 0) {
                break;
            }
            place(p, i);
            i = parent;
        }
        place(t, i);
    }

    private void siftDown(int i, Timer t) {
        Timer[] h = far;
        int n = farSize;
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
            place(c, i);
            i = child;
        }
        place(t, i);
    }

    private void place(Timer t, int i) {
        far[i] = t;
        t.pos = Timer.farIndex(i);
    }

    /** Takes this object's spin lock (the handle used in place, not passed: see {@link SpinLock}). */
    private void lock() {
        if (!LOCK.compareAndSet(this, 0, 1)) {
            SpinLock.lockSlow(LOCK, this);
        }
    }

    /** Releases this object's spin lock. */
    private void unlock() {
        LOCK.setRelease(this, 0);
    }

    private static final VarHandle LOCK = SpinLock.handle(MethodHandles.lookup(), TimerQueue.class, "lock");
}
