package dev.spindle.internal.net;

import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.util.Arrays;

/**
 * The waiters of one socket: who waits for which readiness, and the socket's registration with its
 * engine's {@link NetPoller}.
 *
 * <p>Interest. The interest set registered with the selector is the union of the waiters' interests plus
 * the "sticky" ones ({@code OP_READ}, {@code OP_ACCEPT}) that made a waiter ready last time: a server that
 * reads, answers and reads again then never changes its registration (each change costs a system call at
 * the next select, and a wakeup of a blocked one). A sticky interest that a blocking select finds ready
 * with nobody waiting is dropped at once, so an idle poller never spins on a socket nobody reads (no busy
 * polling); busy polls, which run anyway, leave it (see {@link #ready}).
 *
 * <p>Guarded by this object's monitor (held for a few instructions: an append, a removal, a scan).
 * A waiter leaves the list when it is made ready, withdrawn, or woken by {@link #close}; a ready waiter
 * that finds nothing to do registers again.
 */
public final class Port {
    private final SelectableChannel channel;
    private NetPoller poller;
    /** Interests kept while nobody waits, until they become ready with nobody waiting. */
    private static final int STICKY = SelectionKey.OP_READ | SelectionKey.OP_ACCEPT;

    private SelectionKey key;
    /** The interest set last given to the selector. */
    private int registered;
    private Work[] waiters = new Work[2];
    private int[] interests = new int[2];
    private int count;
    private boolean closed;
    /**
     * Blocking selects that may still keep an idle interest for a waiter on its way back: set when
     * {@link #ready} hands waiters out, zero once one of them has run ({@link #arrived}) or a waiter
     * registers; each keep spends one, so a waiter that never comes back costs at most this many keeps.
     */
    private int keepsLeft;
    /** {@link #keepsLeft} after a hand-out. */
    private static final int KEEPS_PER_HAND_OUT = 8;

    /** A port for {@code channel}, which must be in non-blocking mode. */
    public Port(SelectableChannel channel) {
        this.channel = channel;
    }

    /**
     * Registers {@code waiter} for readiness {@code interest} (a {@link SelectionKey} op). On a closed port
     * the waiter is scheduled at once, to find the socket closed.
     */
    public void add(Work waiter, int interest, Worker current) {
        NetPoller p;
        boolean added;
        boolean grew;
        synchronized (this) {
            if (poller == null || poller.engine != current.engine()) {
                moveTo(NetPoller.of(current));
            }
            p = poller;
            grew = (registered & interest) != interest;
            if (closed) {
                added = false;
            } else {
                if (count == waiters.length) {
                    waiters = Arrays.copyOf(waiters, count * 2);
                    interests = Arrays.copyOf(interests, count * 2);
                }
                waiters[count] = waiter;
                interests[count] = interest;
                count++;
                keepsLeft = 0;
                added = updateInterest(registered & STICKY);
                if (!added) {
                    count--; // the channel was closed under us: the waiter runs at once instead
                    waiters[count] = null;
                }
            }
        }
        if (!added) {
            current.push(waiter);
        } else if (grew) {
            p.interestAdded();
        }
    }

    /**
     * Makes {@code next} the poller of this port, which a fiber of another scheduler waits on for the first
     * time: the registration moves when nobody waits through the old poller, or when that poller's scheduler
     * has closed (its waiters can never run again). Holds the monitor.
     *
     * <p>The old key is left registered with no interest rather than cancelled: a cancelled key stays in its
     * selector until that selector's next select, and registering the channel there again meanwhile (a move
     * back) would fail. A move back takes up the key left there. A channel may have a key in each selector,
     * and closing the channel cancels them all.
     *
     * @throws IllegalStateException if fibers of another scheduler, still open, wait on this socket
     */
    private void moveTo(NetPoller next) {
        if (poller != null) {
            if (count > 0 && !poller.isClosed()) {
                throw new IllegalStateException("fibers of " + poller.engine + " wait on " + channel
                        + ": a socket can be waited on by one scheduler at a time");
            }
            Arrays.fill(waiters, 0, count, null);
            count = 0;
        }
        if (key != null) {
            try {
                key.interestOps(0);
            } catch (CancelledKeyException e) {
                // the old selector is closed, or the channel: nothing will report through that key
            }
        }
        poller = next;
        key = channel.keyFor(next.selector()); // left by an earlier stay with that poller, or null
        registered = 0;
        keepsLeft = 0;
    }

    /** A waiter made ready by a select has started to run: idle readiness is no longer kept for it. */
    public synchronized void arrived() {
        keepsLeft = 0;
    }

    /** Withdraws {@code waiter} if it is still registered. */
    public synchronized void remove(Work waiter) {
        for (int i = 0; i < count; i++) {
            if (waiters[i] == waiter) {
                removeAt(i);
                updateInterest(registered & STICKY);
                return;
            }
        }
    }

    /**
     * Runs every waiter for {@code interest} now, without readiness: what an operation gave back (bytes, a
     * connection) is not in the socket, so no select reports it. Each looks again and waits again if it
     * finds nothing.
     */
    public void wakeAll(int interest) {
        Work chain;
        NetPoller p;
        synchronized (this) {
            p = poller;
            chain = detach(interest);
        }
        while (chain != null) { // a waiter implies a registration, so p != null
            Work wk = chain;
            chain = wk.queueLink();
            wk.setQueueLink(null);
            p.engine.enqueue(wk);
        }
    }

    /**
     * Closes the channel and wakes every waiter (each then finds the socket closed). Idempotent.
     */
    public void close() throws IOException {
        Work[] woken;
        int n;
        NetPoller p;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            woken = waiters;
            n = count;
            waiters = new Work[0];
            count = 0;
            p = poller;
        }
        try {
            channel.close();
        } finally {
            for (int i = 0; i < n; i++) { // n > 0 implies a registration, so p != null
                p.engine.enqueue(woken[i]);
            }
        }
    }

    /** {@link #close} for a caller with nobody to tell of a failure: the socket is unusable either way. */
    public void closeQuietly() {
        try {
            close();
        } catch (IOException ignored) {
            // the channel is closed even when its close failed (SocketChannel.close's contract)
        }
    }

    /**
     * Called by the selecting thread: hands the waiters whose interest is in {@code readyOps} to it. A sticky
     * interest that nobody waits on is dropped when {@code dropIdle}; a busy poll keeps it, since most often
     * a waiter it made ready earlier has not run yet (the selector is level-triggered), and dropping it there
     * would cost two interest changes per message. A blocking select drops it too, so an idle poller never
     * returns at once for a socket nobody reads, except while a waiter it handed out has not run yet
     * ({@link #keepsLeft}): then it keeps the interest and returns true, and the poller waits a moment instead
     * of selecting again.
     */
    boolean ready(int readyOps, NetPoller sink, boolean dropIdle) {
        Work chain;
        boolean deferred = false;
        synchronized (this) {
            if (sink != poller) {
                // a select that began before the port moved to another scheduler's poller (moveTo): its
                // waiters belong to that poller, whose own select reports the same level-triggered readiness
                return false;
            }
            int served = 0;
            for (int i = 0; i < count; i++) {
                if ((interests[i] & readyOps) != 0) {
                    served |= interests[i];
                }
            }
            chain = detach(readyOps);
            int kept = registered & STICKY;
            if (dropIdle) {
                if (keepsLeft > 0 && (kept & readyOps & ~served) != 0) {
                    deferred = true;
                    keepsLeft--;
                } else {
                    kept &= served;
                }
            }
            if (served != 0) {
                keepsLeft = KEEPS_PER_HAND_OUT;
            }
            updateInterest(kept);
        }
        while (chain != null) {
            Work wk = chain;
            chain = wk.queueLink();
            sink.collect(wk);
        }
        return deferred;
    }

    /**
     * Removes the waiters whose interest meets {@code ops} and returns them as a chain through their queue
     * links, in list order (null if none). Holds the monitor.
     */
    private Work detach(int ops) {
        Work chain = null;
        for (int i = count - 1; i >= 0; i--) {
            if ((interests[i] & ops) != 0) {
                Work wk = waiters[i];
                removeAt(i);
                wk.setQueueLink(chain);
                chain = wk;
            }
        }
        return chain;
    }

    private void removeAt(int i) {
        count--;
        waiters[i] = waiters[count];
        interests[i] = interests[count];
        waiters[count] = null;
    }

    /**
     * Makes the selector's interest set the union of the waiters' interests and {@code kept}. Returns false
     * when the channel turned out closed (the caller wakes the waiter). Holds the monitor.
     */
    private boolean updateInterest(int kept) {
        int want = kept;
        for (int i = 0; i < count; i++) {
            want |= interests[i];
        }
        try {
            if (key == null) {
                if (want != 0) {
                    key = channel.register(poller.selector(), want, this);
                    registered = want;
                }
            } else if (registered != want) {
                key.interestOps(want);
                registered = want;
            }
            return true;
        } catch (ClosedChannelException | ClosedSelectorException | CancelledKeyException e) {
            return false;
        }
    }

    @Override
    public synchronized String toString() {
        return "Port(" + channel + ", " + count + " waiting)";
    }
}
