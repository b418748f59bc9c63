package dev.spindle.internal.diag;

import dev.spindle.SchedulerMetrics;
import java.util.function.Supplier;

/**
 * The runtime's JFR events, usable whether or not the {@code jdk.jfr} module is present: every method does
 * nothing when it is absent (a runtime image without it, or a modular application that did not resolve it),
 * and nothing until the flight recorder has been initialized (a recording started, from the command line or
 * later with jcmd). {@link JfrEvents} is the only class that names event types, loaded only then: loading
 * an event class sets up JFR's machinery, half a second of class loading that a program never recording
 * must not pay. A disabled event costs its {@code shouldCommit()} check.
 */
public final class Jfr {
    /** Whether the recorder is initialized (set by its listener; it never goes back). */
    static volatile boolean initialized;

    private Jfr() {
    }

    /** Registers the listener that turns the events on once the recorder is initialized; once per process. */
    static void watchRecorder(Runnable onInitialized) {
        try {
            Module jfr = Class.forName("jdk.jfr.FlightRecorder").getModule();
            if (Jfr.class.getModule().canRead(jfr)) {
                RecorderListener.add(() -> {
                    initialized = true;
                    onInitialized.run();
                });
            }
        } catch (ClassNotFoundException | LinkageError e) {
            // no jdk.jfr: no events
        }
    }

    static void schedulerStart(String scheduler, int workers) {
        if (initialized) {
            JfrEvents.schedulerStart(scheduler, workers);
        }
    }

    static void schedulerClose(String scheduler) {
        if (initialized) {
            JfrEvents.schedulerClose(scheduler);
        }
    }

    static void starvation(Starvation s) {
        if (initialized) {
            JfrEvents.starvation(s);
        }
    }

    static void uncaught(String scheduler, long fiberId, String fiberName, Throwable e) {
        if (initialized) {
            JfrEvents.uncaught(scheduler, fiberId, fiberName, e);
        }
    }

    static void timerLateness(String scheduler, long latenessNanos) {
        if (initialized) {
            JfrEvents.timerLateness(scheduler, latenessNanos);
        }
    }

    /** Registers {@code look} as the periodic hook of the FiberBlocked event (once per process). */
    static void registerBlocked(Runnable look) {
        if (initialized) {
            JfrEvents.registerBlocked(look);
        }
    }

    static void blocked(String scheduler, long fiberId, String fiberName, String blockedOn, long nanos) {
        if (initialized) {
            JfrEvents.blocked(scheduler, fiberId, fiberName, blockedOn, nanos);
        }
    }

    /** Registers {@code all} as the source of the periodic statistics event (once per process). */
    static void registerStatistics(Supplier<Iterable<SchedulerMetrics>> all) {
        if (initialized) {
            JfrEvents.registerStatistics(all);
        }
    }
}
