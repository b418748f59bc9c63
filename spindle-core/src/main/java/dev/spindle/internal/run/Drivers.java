package dev.spindle.internal.run;

/**
 * Which worker the calling thread drives: a worker thread always drives its own; any other thread (the
 * caller of a single-threaded scheduler's {@code run}, the simulator's thread) drives a worker between
 * {@link #begin} and {@link #end}, marked in a thread-local. Drives nest (a job that calls {@code run}), so
 * each restores what it found.
 */
public final class Drivers {
    /** The worker a thread other than a worker thread is driving now, if any. */
    private static final ThreadLocal<Worker> DRIVEN_BY_THIS_THREAD = new ThreadLocal<>();

    private Drivers() {
    }

    /** The worker whose dedicated thread {@code t} is, or null (for drivers of single-threaded engines too). */
    public static Worker ofWorkerThread(Thread t) {
        return t instanceof WorkerThread wt ? wt.worker : null;
    }

    /**
     * Whether the calling thread runs Spindle work items: a worker thread, or a thread driving a
     * single-threaded or simulated scheduler. Parking such a thread could stop it from running the fiber
     * that would wake it.
     */
    public static boolean currentThreadRunsFibers() {
        return Thread.currentThread() instanceof WorkerThread || DRIVEN_BY_THIS_THREAD.get() != null;
    }

    /**
     * The engine whose work the calling thread runs at the innermost level: a worker thread's engine, or the
     * engine of the worker it drives now; null when it runs none.
     */
    static Engine engineRunByCurrentThread() {
        Worker w = ofWorkerThread(Thread.currentThread());
        if (w == null) {
            w = DRIVEN_BY_THIS_THREAD.get();
        }
        return w == null ? null : w.engine;
    }

    /**
     * Makes the calling thread {@code w}'s driver until {@link #end}: the thread producers unpark, and, for a
     * thread that is not a worker thread, the mark {@link #currentThreadRunsFibers} reads.
     */
    static DriveMark begin(Worker w) {
        Thread t = Thread.currentThread();
        DriveMark mark = new DriveMark(w.thread, t instanceof WorkerThread ? null : DRIVEN_BY_THIS_THREAD.get());
        w.thread = t;
        if (!(t instanceof WorkerThread)) {
            DRIVEN_BY_THIS_THREAD.set(w);
        }
        return mark;
    }

    /** Ends a drive of {@code w} begun by {@link #begin}, restoring the driver and the mark it found. */
    static void end(Worker w, DriveMark mark) {
        w.thread = mark.previousThread();
        if (!(Thread.currentThread() instanceof WorkerThread)) {
            if (mark.previousDriven() == null) {
                DRIVEN_BY_THIS_THREAD.remove();
            } else {
                DRIVEN_BY_THIS_THREAD.set(mark.previousDriven());
            }
        }
    }
}
