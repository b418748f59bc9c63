package dev.spindle.sync;

import dev.spindle.Alt;
import dev.spindle.Direct;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.run.Durations;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.select.LockedWait;
import dev.spindle.internal.select.LockedWaitQueue;
import dev.spindle.internal.select.ThreadWaiter;
import dev.spindle.internal.select.Waiter;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * A flag that fibers and threads can wait to be signalled (marl's {@code Event}). In {@link Mode#MANUAL}
 * mode a signal releases every waiter and the event stays signalled until {@link #clear()}; in
 * {@link Mode#AUTO} mode each signal releases exactly one waiter, or, when none waits, stays until one
 * {@link #test()} or wait consumes it.
 *
 * <pre>{@code
 * Event ready = new Event(Event.Mode.MANUAL, false);
 * Job<Void> consumer = ready.await().then(Job.run(() -> use(data)));
 * Job<Void> producer = Job.run(() -> { data = load(); ready.signal(); });
 * scheduler.run(consumer.start().flatMap(c -> producer.then(c.join())));
 *
 * boolean inTime = scheduler.run(ready.await(Duration.ofMillis(50)));  // false on timeout
 * ready.awaitBlocking();                                                // from an ordinary thread
 * }</pre>
 *
 * <p>A timed wait that races a signal is resumed exactly once: either it took the signal (true) or it
 * expired (false) and the signal went to another waiter or stayed. A fiber cancelled while waiting stops
 * waiting and takes no signal.
 *
 * <p>{@link #await()} is an {@link Alt}: in a {@link Alt#choose} an AUTO event's signal is consumed only
 * by the wait that is committed to; a losing wait leaves it signalled.
 *
 * @implNote Every operation is a short critical section under a spin lock; waking a fiber allocates
 *     nothing. A timed fiber wait is a choose with {@link Alt#after}: a pick, a waiter and a timer.
 */
public final class Event {
    /*
     * Implementation overview
     * =======================
     * State and transitions (signalled is written under the queue lock, read without it)
     *   signalled | waiters | meaning
     *   false     | none    | idle
     *   false     | some    | waiters blocked
     *   true      | none    | signalled: MANUAL until clear(); AUTO until one test() or wait consumes it
     *
     *   signal()  MANUAL: signalled = true and every waiter is released (those of chooses decided elsewhere
     *                     are skipped)
     *             AUTO:   the oldest waiter it can commit is released (the signal is handed to it and
     *                     signalled stays false); with none, signalled = true
     *             then every event made by any() from this one is signalled (outside the lock)
     *   clear()   signalled = false
     *   test()    AUTO consumes: true -> false; MANUAL reads
     *   wait      signalled ? (AUTO: consume) complete : link a waiter
     *
     * INV: signalled implies no live waiters (a signal that finds one hands itself over).
     * Hand-over is what makes "exactly one waiter per AUTO signal" hold without re-checks: a released
     * waiter never competes for the signal again.
     */

    /** How signals are consumed. */
    public enum Mode {
        /** Each signal releases one waiter, or stays until one wait or {@link #test()} consumes it. */
        AUTO,
        /** A signal releases every waiter and stays until {@link #clear()}. */
        MANUAL
    }

    private static final Event[] NO_EVENTS = new Event[0];

    private final String name;
    private final boolean auto;
    private final LockedWaitQueue waiters = new LockedWaitQueue(this);
    /** Written under the queue lock; volatile reads for isSignalled and fast paths. */
    private volatile boolean signalled;
    /** Events made by any() that include this one; copy-on-write under the queue lock. */
    private Event[] dependents = NO_EVENTS;
    private final Wait wait = new Wait();
    private final Alt<Void> await = Bridge.alt(wait);

    /**
     * An unsignalled event of mode {@code mode}.
     *
     * @param mode whether a waiter consumes the signal ({@link Mode#AUTO}) or not ({@link Mode#MANUAL})
     */
    public Event(Mode mode) {
        this(mode, false, null);
    }

    /**
     * An event of mode {@code mode}, signalled from the start when {@code initiallySignalled}.
     *
     * @param mode whether a waiter consumes the signal ({@link Mode#AUTO}) or not ({@link Mode#MANUAL})
     * @param initiallySignalled whether the event starts signalled
     */
    public Event(Mode mode, boolean initiallySignalled) {
        this(mode, initiallySignalled, null);
    }

    /**
     * An event of mode {@code mode}, signalled from the start when {@code initiallySignalled}, named
     * {@code name} in {@code toString} (and so in deadlock reports); {@code name} may be null.
     *
     * @param mode whether a waiter consumes the signal ({@link Mode#AUTO}) or not ({@link Mode#MANUAL})
     * @param initiallySignalled whether the event starts signalled
     * @param name the event's name, or null
     */
    public Event(Mode mode, boolean initiallySignalled, String name) {
        this.auto = Objects.requireNonNull(mode, "mode") == Mode.AUTO;
        this.signalled = initiallySignalled;
        this.name = name;
    }

    /**
     * {@return a {@link Mode#MANUAL} event that is signalled whenever one of {@code events} is signalled, now
     * or later (marl's {@code Event::any}); it is signalled at once if one of them already is} It does not
     * consume their signals.
     *
     * @implNote Each input keeps a reference to the new event for as long as the input lives: make one and
     *     reuse it rather than one per wait.
     * @param events the events it follows; at least one
     * @throws IllegalArgumentException if {@code events} is empty
     */
    public static Event any(Event... events) {
        Objects.requireNonNull(events, "events");
        if (events.length == 0) {
            throw new IllegalArgumentException("Event.any needs at least one event");
        }
        StringBuilder label = new StringBuilder("any(");
        for (int i = 0; i < events.length; i++) {
            Event e = events[i];
            if (e == null) {
                throw new NullPointerException("events[" + i + "] is null");
            }
            label.append(i == 0 ? "" : ", ").append(e.name != null ? e.name : Waits.label(e, "Event", null));
        }
        Event any = new Event(Mode.MANUAL, false, label.append(')').toString());
        boolean signalledNow = false;
        for (Event e : events) {
            signalledNow |= e.addDependent(any);
        }
        if (signalledNow) {
            any.signal();
        }
        return any;
    }

    private boolean addDependent(Event dependent) {
        waiters.lock();
        Event[] d = Arrays.copyOf(dependents, dependents.length + 1);
        d[d.length - 1] = dependent;
        dependents = d;
        boolean s = signalled;
        waiters.unlock();
        return s;
    }

    /**
     * Signals the event: in MANUAL mode releases every waiter and stays signalled; in AUTO mode releases the
     * oldest waiter, or stays signalled until consumed when nobody waits. Signalling a signalled event does
     * nothing. Callable from any thread or job.
     */
    public void signal() {
        waiters.lock();
        if (signalled) {
            waiters.unlock();
            return;
        }
        Work released;
        if (auto) {
            released = waiters.pollCommitted(); // the signal goes to a waiter whose pick this commits
            if (released == null) {
                signalled = true;
            }
        } else {
            signalled = true;
            released = waiters.drain();
        }
        Event[] d = dependents;
        waiters.unlock();
        if (auto) {
            if (released != null) {
                Waiter.release(null, released, null);
            }
        } else {
            Waiter.releaseAll(null, released, null);
        }
        for (Event e : d) {
            e.signal();
        }
    }

    /** Unsignals the event. Waiters keep waiting. */
    public void clear() {
        waiters.lock();
        signalled = false;
        waiters.unlock();
    }

    /**
     * {@return whether the event is signalled, without waiting; in AUTO mode a true result consumes the
     * signal}
     */
    public boolean test() {
        if (!signalled) {
            return false;
        }
        if (!auto) {
            return true;
        }
        waiters.lock();
        boolean s = signalled;
        signalled = false;
        waiters.unlock();
        return s;
    }

    /** {@return whether the event is signalled; never consumes the signal} */
    public boolean isSignalled() {
        return signalled;
    }

    /** {@return the event's mode} */
    public Mode mode() {
        return auto ? Mode.AUTO : Mode.MANUAL;
    }

    /**
     * {@return an alternative that waits until the event is signalled (at once if it is; AUTO mode consumes
     * the signal)} Cancellable while it waits; a cancelled waiter takes no signal. In a {@link Alt#choose} it
     * consumes an AUTO signal only when committed to.
     */
    public Alt<Void> await() {
        return await;
    }

    /**
     * {@return an alternative that waits at most {@code timeout} for the event and gives whether it was
     * signalled (in AUTO mode a true result consumed the signal):
     * {@code choose(await(), Alt.after(timeout))}} A zero timeout only tests.
     *
     * @param timeout how long to wait at most
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public Alt<Boolean> await(Duration timeout) {
        return Waits.timed(await, timeout, "Event.await timeout");
    }

    /**
     * Blocks the calling thread until the event is signalled (AUTO mode consumes the signal).
     *
     * @throws InterruptedException if the thread is interrupted while waiting (it then takes no signal)
     * @throws IllegalStateException if it would have to wait on a thread that runs fibers: use
     *     {@link #await()} inside jobs
     */
    public void awaitBlocking() throws InterruptedException {
        if (Direct.inDirectBody()) {
            Direct.await(await());
            return;
        }
        awaitThread(-1);
    }

    /**
     * Blocks the calling thread at most {@code timeout} for the event; gives whether it was signalled.
     *
     * @param timeout how long to wait at most
     * @return whether the event was signalled (in AUTO mode, the signal is consumed)
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws InterruptedException if the thread is interrupted while waiting (it then takes no signal)
     * @throws IllegalStateException if it would have to wait on a thread that runs fibers: use
     *     {@link #await(Duration)} inside jobs
     */
    public boolean awaitBlocking(Duration timeout) throws InterruptedException {
        if (Direct.inDirectBody()) {
            return Direct.await(await(timeout));
        }
        return awaitThread(Durations.nonNegativeNanos(timeout, "Event.awaitBlocking timeout"));
    }

    private boolean awaitThread(long nanos) throws InterruptedException {
        if (test()) {
            return true;
        }
        if (nanos == 0) {
            return false;
        }
        Waits.checkMayBlock(this, "Event.awaitBlocking()", "await()");
        return wait.awaitThread(nanos, true) != ThreadWaiter.TIMED_OUT;
    }

    /** Waiters currently linked (for tests). */
    int waiterCount() {
        return waiters.waiting();
    }

    @Override
    public String toString() {
        return Waits.label(this, "Event", name) + "[" + (auto ? "auto" : "manual") + ", "
                + (signalled ? "signalled" : "not signalled") + ", waiters=" + waiters.waiting() + "]";
    }

    /** {@link #await()} in its three forms: a choose's alternative, a plain job, a thread's blocking call. */
    private final class Wait extends LockedWait<Void> {
        Wait() {
            super(waiters);
        }

        @Override
        protected boolean completeWithoutLock() {
            return !auto && signalled;
        }

        @Override
        protected boolean readyLocked(Object who) {
            return signalled;
        }

        @Override
        protected Void takeLocked(Object who) {
            if (auto) {
                signalled = false;
            }
            return null;
        }

        @Override
        public String toString() {
            return "await of " + Event.this;
        }
    }
}
