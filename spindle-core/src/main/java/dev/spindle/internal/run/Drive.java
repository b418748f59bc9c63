package dev.spindle.internal.run;

import java.util.List;

/**
 * What a driver that chooses the order of work (the simulator) may do with an engine's sole worker:
 * collect what was scheduled, run one item on the calling thread, and terminate a closing engine. A
 * drive marks the calling thread as the worker's driver from {@link #begin} to {@link #close}. Owner
 * only: everything runs on the one thread that drives the engine.
 */
public final class Drive implements AutoCloseable {
    private final Engine engine;
    private final Worker worker;
    private final DriveMark mark;

    private Drive(Engine engine) {
        this.engine = engine;
        this.worker = engine.soleWorker();
        this.mark = Drivers.begin(worker);
    }

    /** Makes the calling thread the driver of {@code engine}'s sole worker until {@link #close}. */
    public static Drive begin(Engine engine) {
        return new Drive(engine);
    }

    /**
     * Moves everything scheduled since the last call to the end of {@code into}, in scheduling order: the
     * worker's local stack (pushed newest-first, so reversed) and then the global queue.
     */
    public static void collect(Engine engine, List<Work> into) {
        Worker w = engine.soleWorker();
        int start = into.size();
        for (Work wk = w.popLocal(); wk != null; wk = w.popLocal()) {
            into.add(wk);
        }
        java.util.Collections.reverse(into.subList(start, into.size()));
        for (Work wk = engine.pollGlobal(); wk != null; wk = engine.pollGlobal()) {
            into.add(wk);
        }
    }

    /** Runs {@code wk} on the calling thread, as the worker loop would. */
    public void run(Work wk) {
        worker.run(wk);
    }

    /** After {@code shutdown()}: terminates the engine when nothing is live and the worker's stack is empty. */
    public void terminateIfQuiescent() {
        engine.terminateIfQuiescent(worker);
    }

    /** Ends the drive, restoring the driver and the mark the thread had before. */
    @Override
    public void close() {
        Drivers.end(worker, mark);
    }
}
