package dev.spindle.internal.run;

/**
 * What the jcstress tests outside this package need of the runtime's package-private steps: running one
 * work item the way a worker's loop does, and taking one item from an engine's global queue the way an
 * idle worker does. It only forwards to the production methods; it lives in spindle-jcstress, in the same
 * package as those methods (a split package, so this module runs on the class path only).
 */
public final class RunAccess {
    private RunAccess() {
    }

    /** Runs {@code wk} on {@code w} as the worker's loop does ({@link Worker#run}: fresh fuel, errors routed). */
    public static void run(Worker w, Work wk) {
        w.run(wk);
    }

    /** Takes the oldest item of {@code engine}'s global queue ({@link Engine#pollGlobal}), or null. */
    public static Work pollGlobal(Engine engine) {
        return engine.pollGlobal();
    }
}
