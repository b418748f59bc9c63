package dev.spindle.internal.diag;

import dev.spindle.SchedulerMetrics;
import java.util.function.Supplier;

/**
 * The runtime's JFR events, usable whether or not the {@code jdk.jfr} module is present: every method does
 * nothing when it is absent (a runtime image without it, or a modular application that did not resolve it).
 * {@link JfrEvents} is the only class that names {@code jdk.jfr} types, and it is loaded only when the module
 * is there. A disabled event costs its {@code shouldCommit()} check.
 */
public final class Jfr {
    /** Whether jdk.jfr can be used by this module. */
    static final boolean AVAILABLE = detect();

    private Jfr() {
    }

    private static boolean detect() {
        try {
            Module jfr = Class.forName("jdk.jfr.Event").getModule();
            return Jfr.class.getModule().canRead(jfr);
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    static void schedulerStart(String scheduler, int workers) {
        if (AVAILABLE) {
            JfrEvents.schedulerStart(scheduler, workers);
        }
    }

    static void schedulerClose(String scheduler) {
        if (AVAILABLE) {
            JfrEvents.schedulerClose(scheduler);
        }
    }

    static void starvation(Starvation s) {
        if (AVAILABLE) {
            JfrEvents.starvation(s);
        }
    }

    static void uncaught(String scheduler, long fiberId, String fiberName, Throwable e) {
        if (AVAILABLE) {
            JfrEvents.uncaught(scheduler, fiberId, fiberName, e);
        }
    }

    static void timerLateness(String scheduler, long latenessNanos) {
        if (AVAILABLE) {
            JfrEvents.timerLateness(scheduler, latenessNanos);
        }
    }

    /** Registers {@code all} as the source of the periodic statistics event (once per process). */
    static void registerStatistics(Supplier<Iterable<SchedulerMetrics>> all) {
        if (AVAILABLE) {
            JfrEvents.registerStatistics(all);
        }
    }
}
