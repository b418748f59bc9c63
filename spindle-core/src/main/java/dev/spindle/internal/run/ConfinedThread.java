package dev.spindle.internal.run;

/**
 * The engine a thread is confined to: one whose driver runs all of its work on that thread and allows no
 * other (the simulator's, claimed by the thread that builds a simulation). Between drives such a thread
 * is an ordinary thread to the runtime, so this mark is what tells it that work handed to the process-wide
 * common scheduler would escape to real threads. One engine per thread, the latest claimed: a thread that
 * builds several simulations is confined to the newest until that one is closed or released. Confined to
 * its thread; an engine that has terminated no longer counts.
 */
public final class ConfinedThread {
    private static final ThreadLocal<Engine> CONFINED = new ThreadLocal<>();

    private ConfinedThread() {
    }

    /** Confines the calling thread to {@code engine} (replacing any earlier mark). */
    public static void claim(Engine engine) {
        CONFINED.set(engine);
    }

    /** Ends the calling thread's confinement to {@code engine}; no effect if it is confined to another. */
    public static void release(Engine engine) {
        if (CONFINED.get() == engine) {
            CONFINED.remove();
        }
    }

    /**
     * The engine the calling thread is confined to, if that engine is still open and its driver allows
     * no other thread; else null.
     */
    public static Engine current() {
        Engine e = CONFINED.get();
        if (e == null) {
            return null;
        }
        if (e.isTerminated() || e.driver().allowsOtherThreads()) {
            CONFINED.remove();
            return null;
        }
        return e;
    }
}
