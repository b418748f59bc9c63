package dev.spindle.internal.run;

import java.time.Instant;

/**
 * The platform an engine runs on: its clock, how a caller waits for it, and what the runtime may do there.
 * Every engine has one: {@link SystemDriver} (real threads, {@code System.nanoTime}) or the deterministic
 * simulator's (in spindle-test: one thread, virtual time, an order of its choosing). Each method answers
 * one question the runtime would otherwise settle by asking "am I simulated"; the constant answers are
 * read once, when the engine is built, into final fields that hot paths read.
 */
public interface Driver {
    /** The current time in nanoseconds: the only time source the runtime uses. */
    long nanoTime();

    /** The instant at which {@link #nanoTime()} reads {@code nanos}. */
    Instant instant(long nanos);

    /**
     * Blocks the calling thread until {@code stop} holds, running {@code engine}'s work meanwhile where the
     * driver runs it on waiting threads. Whoever makes {@code stop} true wakes the waiting thread.
     */
    void await(Engine engine, StopCondition stop);

    /**
     * Like {@link #await}, for {@code close()}: {@code quiescent} holds once no fiber is live and nothing is
     * queued; the callbacks of finished fibers still waiting on a driven worker's stack must run first.
     */
    void awaitQuiescent(Engine engine, StopCondition quiescent);

    /**
     * Whether the runtime decides what runs next after a step: a started child runs at once on the
     * starter's stack (work-first) and a waiting direct body may run the next item itself. False when the
     * driver chooses among everything runnable, so every item must be queued for it.
     */
    boolean runtimeChoosesOrder();

    /**
     * Whether threads other than the engine's own may do its work or be started for it: a real thread for
     * {@code Job.blocking}, a virtual thread for a direct body, a poller for real sockets, a bound thread.
     * False when the driver runs everything on the one thread it controls.
     */
    boolean allowsOtherThreads();

    /** Whether a timer thread wakes the engine when a timer falls due; false: the driver takes due timers. */
    boolean hasTimerThread();
}
