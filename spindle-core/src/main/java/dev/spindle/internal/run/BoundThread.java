package dev.spindle.internal.run;

/**
 * The binding of an ordinary thread to a single-threaded engine (marl's {@code bind}): while bound, the
 * thread's blocking waits on Spindle primitives run the engine's queued work instead of parking, so work that
 * the thread itself submitted can run and wake it.
 *
 * <pre>
 * Driving while waiting
 * =====================
 *   A bound thread's wait drives the engine (Engine.await) until its stop condition holds. The waker of a
 *   thread waiter unparks the thread, which is exactly what wakes an idle driver, so a wait ended by a fiber
 *   (run on this very thread, or on another that drives meanwhile) or by another thread ends the drive.
 *   A timed wait also arms an engine timer whose item only marks that it rang: the driver runs it and
 *   stops, and the waiter re-reads its deadline (a timer may ring within its tick, a little early).
 * </pre>
 */
public final class BoundThread {
    /** The engine the thread is bound to, or null. Confined to its thread. */
    private static final ThreadLocal<Engine> BOUND = new ThreadLocal<>();

    private BoundThread() {
    }

    /** The engine the calling thread is bound to, or null. */
    public static Engine current() {
        return BOUND.get();
    }

    /**
     * Binds the calling thread to {@code engine}.
     *
     * @throws IllegalStateException if the thread is bound already, runs fibers now, or {@code engine} is not
     *     a single-threaded engine on real time, or is closed
     */
    public static void bind(Engine engine) {
        Engine bound = BOUND.get();
        if (bound != null) {
            throw new IllegalStateException("thread \"" + Thread.currentThread().getName()
                    + "\" is bound to scheduler " + bound.name() + " already: close that binding first");
        }
        if (!engine.isSingleThreaded() || !engine.driver().allowsOtherThreads()) {
            throw new IllegalStateException("scheduler " + engine.name() + " cannot be bound: only a"
                    + " single-threaded scheduler runs its work on the threads that wait for it");
        }
        if (Drivers.currentThreadRunsFibers()) {
            throw new IllegalStateException("bind() called while running fibers (inside a job): bind the"
                    + " thread before it runs work");
        }
        engine.checkOpen();
        BOUND.set(engine);
    }

    /** Ends the calling thread's binding to {@code engine}; false when it was not bound to it. */
    public static boolean unbind(Engine engine) {
        if (BOUND.get() != engine) {
            return false;
        }
        BOUND.remove();
        return true;
    }

    /**
     * Whether a blocking wait may go on here although the thread runs fibers: it is bound, and the work it
     * runs at the innermost level is its bound engine's, which the wait then keeps running (a nested drive,
     * as {@code Scheduler.run} inside a job does).
     */
    public static boolean drivesItsBinding() {
        Engine bound = BOUND.get();
        return bound != null && bound == Drivers.engineRunByCurrentThread();
    }

    /**
     * Runs {@code engine}'s work on the calling thread until {@code stop} holds, or (when {@code nanos >= 0})
     * until about {@code nanos} have passed: the caller re-checks its own deadline. Whoever makes
     * {@code stop} true unparks the thread.
     */
    public static void drive(Engine engine, StopCondition stop, long nanos) {
        if (nanos < 0) {
            engine.await(stop);
            return;
        }
        Alarm alarm = new Alarm();
        Timer timer = new Timer(engine.nanoTime() + nanos, alarm);
        engine.timers().schedule(timer);
        try {
            engine.await(() -> alarm.rang || stop.isStopped());
        } finally {
            engine.timers().cancel(timer);
        }
    }

    /** A timer's item that only marks that it rang; run by whichever thread drives the engine then. */
    private static final class Alarm extends Work {
        /** Written by the driver that runs the item, read by the waiting thread's stop condition. */
        volatile boolean rang;

        @Override
        public void doWork(Worker w) {
            rang = true;
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            throw new IllegalStateException("an alarm cannot fail", e);
        }
    }
}
