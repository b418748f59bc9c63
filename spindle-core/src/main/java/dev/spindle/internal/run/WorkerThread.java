package dev.spindle.internal.run;

/** The dedicated thread of one worker in multi-threaded mode. */
final class WorkerThread extends Thread {
    /** The worker this thread drives. */
    final Worker worker;
    /** Set once by {@link #requestStop()}; read by the loop. */
    private volatile boolean stopRequested;

    WorkerThread(String name, Worker worker) {
        super(name);
        this.worker = worker;
        setDaemon(true);
    }

    @Override
    public void run() {
        // On stop, first run what is left: callbacks of fibers that finished just before close() saw
        // none live (futures, blocked callers of run) may still sit on the local stack or the global queue.
        worker.runUntil(() -> stopRequested && !worker.hasLocalWork() && !worker.engine.hasGlobalWork());
    }

    void requestStop() {
        stopRequested = true;
        worker.unpark();
    }
}
