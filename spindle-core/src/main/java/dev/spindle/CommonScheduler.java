package dev.spindle;

import dev.spindle.internal.run.ConfinedThread;
import dev.spindle.internal.run.Engine;

/**
 * The scheduler that {@link Direct#await} uses on ordinary threads. Created when first needed (the holder
 * idiom: class initialisation is the lazy, thread-safe publication); its workers are daemon threads, so it
 * never keeps the JVM alive, and it is never closed. Refused on a thread confined to an engine that allows
 * no other thread (the thread driving a simulation): the job would run on real threads, outside it.
 */
final class CommonScheduler {
    private CommonScheduler() {
    }

    /** The common scheduler, for a caller on an ordinary thread. */
    static Scheduler forCallingThread() {
        Engine confined = ConfinedThread.current();
        if (confined != null) {
            throw new IllegalStateException("Direct.await (job.await(), or a blocking form built on it) called"
                    + " on thread \"" + Thread.currentThread().getName() + "\", which drives " + confined.name()
                    + ": it would run the job on Spindle's common scheduler, on real threads outside the"
                    + " simulation; run the job in the simulation instead (sim.run(job)), or close the"
                    + " simulation first");
        }
        return Holder.INSTANCE;
    }

    /** Initialised on first use only, so a refused call creates no scheduler. */
    private static final class Holder {
        static final Scheduler INSTANCE = Scheduler.builder().name("spindle-common").build();
    }
}
