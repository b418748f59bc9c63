package dev.spindle.internal.net;

import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Poller;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One engine's network poller: a {@link Selector} over every socket its fibers wait on, driven by the
 * engine's own workers ({@link Poller}). A dedicated poller thread was measured against it and removed: it
 * cost more CPU per message and more interest changes (its select is always a blocking one), and gave fewer
 * messages per second in every round (docs/benchmark-history-oldest.md, "Echo servers after the poller
 * rework").
 *
 * <pre>
 * Implementation overview
 * =======================
 * Who selects
 *   At most one thread selects at a time: the one that CASes owner from null, after reading it null. An
 *   idle worker blocks in select() (there is no timeout to compute: timers fire on the engine's timer
 *   thread, which wakes a worker through the ordinary signal, and the signal wakes the select); a busy
 *   worker that finds the poller taken skips its look, since the blocked worker sees the readiness anyway.
 * Where ready waiters go (FIFO, any worker)
 *   The waiters one select made ready are chained in the order found and go, as one chain, to the end of
 *   the engine's global queue: a connection ready early is never starved by connections that keep becoming
 *   ready after it, and every worker takes from the one queue, oldest first: a burst does not wait for the
 *   one worker that found it (which the OS may have descheduled) while another serves newer readiness
 *   (docs/benchmark-history.md, "readiness through the global queue"). A blocking select's worker
 *   takes the chain itself next, so that append wakes no one (taking the first item wakes another worker
 *   when more is left); a busy look's append wakes an idle worker.
 * Waking a blocked select (no lost wake-ups)
 *   poller: owner = w (CAS); blocking = true; re-check w.isParked(); select
 *   signal: state PARKED -> SIGNALLED (CAS); read owner and blocking; wakeup()
 *   Both write then read volatile variables (Dekker): the poller sees the signal, or the signaller sees
 *   the poll. A wakeup() before select() makes that select return at once.
 * Interest added while someone is blocked
 *   The JDK's selector applies interest changes at the start of a select, so a port that adds interest
 *   calls interestAdded(): when a selector is blocking in another thread it wakes it, at most once per
 *   select (wakePending). The port's update is a lock release inside the JDK before the read of blocking,
 *   and the select's update-queue lock acquire comes after the write of blocking: the same Dekker shape.
 *   wakePending is cleared before blocking is set, not only after the select: a waker that read blocking
 *   just before the last select ended sets it late, and a busy look's selectNow may consume that wakeup;
 *   a flag left true then would suppress every wakeup the next blocking select needs (for interest added
 *   meanwhile, and for the signal of new work or a due timer), until socket readiness ended it (seconds,
 *   in the soak).
 * Readiness whose waiter is on its way back
 *   A busy worker's look hands a reader out while the data it will read is still in the socket; an idle
 *   worker's blocking select then finds that socket ready with nobody waiting. Dropping the interest there
 *   costs two epoll_ctl calls and a wake-up when the reader registers again a moment later, so the port
 *   keeps it until the reader runs (Port.arrived), for at most KEEPS_PER_HAND_OUT selects. A blocking
 *   select that found nothing but such readiness would return at once if repeated (the selector is
 *   level-triggered), so its worker lets go of the selector and parks for at most DEFERRED_PARK_NANOS (a
 *   signal, such as the busy worker sharing work, ends it sooner). No busy polling: a reader that never
 *   runs costs at most KEEPS_PER_HAND_OUT such parks before the interest is dropped.
 * </pre>
 */
public final class NetPoller implements Poller {
    final Engine engine;
    private final Selector selector;
    /** The worker selecting now, or null; CAS from null. */
    private volatile Worker owner;
    /** Whether the selecting thread is in, or about to enter, a blocking select. */
    private volatile boolean blocking;
    /** Whether a wakeup() was issued since the current blocking select began. */
    private volatile boolean wakePending;
    private volatile boolean closed;
    /** The waiters made ready by the current select, oldest first (see {@link #collect}); selector only. */
    private Work readyHead;
    private Work readyTail;
    /** Whether the current select is a busy worker's non-blocking look (see Port.ready); selector only. */
    private boolean busyPoll;
    /** Ports whose idle readiness the current select kept for a waiter in flight (Port.ready); selector only. */
    private int deferred;
    /** The longest park after a blocking select that found only readiness in flight (see the overview). */
    static final long DEFERRED_PARK_NANOS = 1_000_000;
    private final Consumer<SelectionKey> onReady = this::onReady;

    private NetPoller(Engine engine) {
        this.engine = engine;
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
    }

    /** The poller of the engine that {@code w} belongs to, created on first use. */
    static NetPoller of(Worker w) {
        Engine e = w.engine();
        UnsupportedOperationException refused = refusal(e);
        if (refused != null) {
            throw refused;
        }
        return (NetPoller) e.poller(NetPoller::new);
    }

    /**
     * Null when real sockets may serve {@code e}, else the exception that refuses them: a simulation's driver
     * lets no real thread or kernel event into its schedule.
     */
    static UnsupportedOperationException refusal(Engine e) {
        return e.driver().allowsOtherThreads() ? null : new UnsupportedOperationException(
                "real sockets cannot be used in a simulation: give the code under test the simulated Network"
                        + " instead");
    }

    Selector selector() {
        return selector;
    }

    /** Whether this poller's scheduler has closed it: nothing it selects will run again. */
    boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- Poller (worker mode)

    @Override
    public boolean pollNow(Worker w) {
        if (!acquire(w)) {
            return false;
        }
        boolean found;
        try {
            busyPoll = true;
            selector.selectNow(onReady);
        } catch (IOException | ClosedSelectorException e) {
            // closed with its engine: nothing more will be ready
        } finally {
            busyPoll = false;
            found = flush(true); // before the release: the next owner's select fills the chain again
            owner = null;
        }
        return found;
    }

    @Override
    public boolean pollBlocking(Worker w) {
        if (!acquire(w)) {
            return false;
        }
        boolean polled = true;
        boolean onlyInFlight;
        try {
            wakePending = false; // before blocking: see "Interest added while someone is blocked"
            blocking = true;
            if (w.isParked() && !closed) { // the re-check of the Dekker pair (see the overview)
                selector.select(onReady);
            }
        } catch (IOException | ClosedSelectorException e) {
            polled = false; // closed with its engine: the caller parks instead
        } finally {
            blocking = false;
            wakePending = false;
            onlyInFlight = deferred > 0 && readyHead == null;
            deferred = 0;
            flush(false); // before the release: the next owner's select fills the chain again
            owner = null;
        }
        if (onlyInFlight && polled) {
            LockSupport.parkNanos(this, DEFERRED_PARK_NANOS); // a signal unparks it sooner
        }
        return polled;
    }

    /**
     * Takes the selector for {@code w}; false when closed or another worker holds it. The plain read of
     * {@link #owner} before the CAS keeps the line shared while a worker selects: the busy workers that
     * would lose the CAS anyway do not take it exclusive (test before CAS).
     */
    private boolean acquire(Worker w) {
        return !closed && owner == null && OWNER.compareAndSet(this, null, w);
    }

    @Override
    public void wakeUp(Worker w) {
        if (owner == w && blocking) {
            wake();
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            selector.close(); // wakes a blocked select first
        } catch (IOException ignored) {
            // nothing left to release
        }
    }

    /** A port added interest: wake a select blocked in another thread so that it sees the change. */
    void interestAdded() {
        if (blocking && !wakePending && owner != engine.currentWorker()) {
            wake();
        }
    }

    private void wake() {
        if (WAKE_PENDING.compareAndSet(this, false, true)) {
            selector.wakeup();
        }
    }

    // ---------------------------------------------------------------- readiness

    private void onReady(SelectionKey key) {
        Port port = (Port) key.attachment();
        int ready;
        try {
            ready = key.readyOps();
        } catch (java.nio.channels.CancelledKeyException e) {
            ready = ~0; // closed under us: every waiter looks and finds the socket closed
        }
        if (port.ready(ready, this, !busyPoll)) {
            deferred++;
        }
    }

    /** Appends a waiter made ready by the current select to its chain. Called by the selecting thread. */
    void collect(Work waiter) {
        waiter.setQueueLink(null);
        if (readyTail == null) {
            readyHead = waiter;
        } else {
            readyTail.setQueueLink(waiter);
        }
        readyTail = waiter;
    }

    /**
     * Appends the chain of the select just done to the engine's global queue; true when there was one.
     * Called by the worker that selected, after the select and before it lets go of the selector.
     */
    private boolean flush(boolean fromBusyLook) {
        Work first = readyHead;
        if (first == null) {
            return false;
        }
        Work last = readyTail;
        readyHead = null;
        readyTail = null;
        if (fromBusyLook) {
            engine.pushGlobalChain(first, last); // wakes an idle worker: the looking one goes back to its stack
        } else {
            engine.appendGlobalChain(first, last); // the selecting worker takes it next, waking others for more
        }
        return true;
    }

    @Override
    public String toString() {
        return "NetPoller(" + engine + ")";
    }

    private static final VarHandle OWNER;
    private static final VarHandle WAKE_PENDING;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            OWNER = l.findVarHandle(NetPoller.class, "owner", Worker.class);
            WAKE_PENDING = l.findVarHandle(NetPoller.class, "wakePending", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
