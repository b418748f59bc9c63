package dev.spindle.internal.run;

/**
 * What the jcstress tests outside this package need of the runtime's package-private steps: running one
 * work item the way a worker's loop does, and taking items from a worker's stack or an engine's global
 * queue the way the worker does. It only forwards to the production methods; it lives in
 * spindle-jcstress, in the same package as those methods (a split package, so this module runs on the
 * class path only).
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

    /** Takes the newest item of {@code w}'s local stack ({@link Worker#popLocal}), or null. Owner only. */
    public static Work popLocal(Worker w) {
        return w.popLocal();
    }

    /** The next item {@code w}'s loop would run ({@link Worker#nextWork}: local, then inbox, then global). Owner only. */
    public static Work nextWork(Worker w) {
        return w.nextWork();
    }

    /** Runs the items of {@code w}'s local stack, newest first, until it is empty, as the loop does. Owner only. */
    public static void runLocal(Worker w) {
        Work wk;
        while ((wk = w.popLocal()) != null) {
            w.run(wk);
        }
    }
}
