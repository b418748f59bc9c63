package dev.spindle.internal.diag;

import dev.spindle.FiberDump;
import dev.spindle.FiberSnapshot;
import dev.spindle.SchedulerMetrics;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.EngineHooks;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What a scheduler shows of itself while it runs: its MBean, its JFR events, the starvation watchdog and
 * the timer-lateness probe. Made when the scheduler is built, stopped when its engine terminates.
 *
 * <pre>
 * Implementation overview
 * =======================
 * Watchdog thread (when the threshold is positive): a daemon thread per scheduler that wakes every
 *   threshold/2, samples the workers ({@link Watchdog}) and, on a threaded engine with a worker busy, sends
 *   a probe: a work item stamped with the time, pushed on the global queue, where fired timers go too. The
 *   delay until a worker runs it is the lateness a timer falling due now would see (Cats Effect's
 *   starvation checker sleeps and measures its own lateness the same way). The worker only records the
 *   lateness; the watchdog thread reports it at its next wake-up, so no logging (formatting, console
 *   output that may block) runs on a worker. One probe is out at a time, from its sending until the
 *   watchdog has read its lateness; a lateness past the threshold is warned once per episode (until a
 *   probe comes back in time) and is a JFR event each time. No probe is sent while every worker is
 *   parked, so an idle scheduler stays idle.
 * Statistics: every live Diagnostics is in {@link #LIVE}, which the periodic JFR events read: the
 *   statistics of each scheduler, and (FiberBlocked, off by default) a dump of each, compared with the
 *   previous one to find fibers waiting on the same thing for BLOCKED_NANOS ({@link BlockedTracker}).
 * </pre>
 */
public final class Diagnostics implements EngineHooks {
    /** What the diagnostics read from the scheduler (implemented in the API package). */
    public interface Source {
        /** A fiber dump. */
        FiberDump dump();

        /** The metrics now. */
        SchedulerMetrics metrics();
    }

    private static final Set<Diagnostics> LIVE = ConcurrentHashMap.newKeySet();

    /** A fiber waiting this long on one thing is a FiberBlocked event (when that event is enabled). */
    static final long BLOCKED_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** {@link #returnedLateness} when no probe has come back unread. */
    private static final long NO_LATENESS = -1;

    static {
        Jfr.watchRecorder(() -> {
            Jfr.registerStatistics(Diagnostics::allMetrics);
            Jfr.registerBlocked(Diagnostics::lookForBlocked);
        });
    }

    private final Engine engine;
    private final Source source;
    private final Watchdog watchdog;
    private final Thread thread;
    private final Object mbean;
    private volatile boolean stopped;
    /** A probe is out and its lateness not yet read. Watchdog thread only. */
    private boolean probeOut;
    /** A lateness warning was given and no probe has come back in time since. Watchdog thread only. */
    private boolean latenessWarned;
    /**
     * The lateness of the probe that came back, or {@link #NO_LATENESS}: written by the worker that runs the
     * probe, read and reset by the watchdog thread (one probe is out at a time, so one writer at a time).
     */
    private volatile long returnedLateness = NO_LATENESS;
    /** Long waits, for the FiberBlocked event. */
    private final BlockedTracker blocked = new BlockedTracker(BLOCKED_NANOS);

    private Diagnostics(Engine engine, long thresholdNanos, Source source) {
        this.engine = engine;
        this.source = source;
        this.watchdog = thresholdNanos > 0 ? new Watchdog(engine, thresholdNanos, this::starving) : null;
        this.mbean = Management.register(engine.name(), source);
        if (watchdog != null) {
            thread = new Thread(this::watch, engine.name() + "-watchdog");
            thread.setDaemon(true);
        } else {
            thread = null;
        }
    }

    /**
     * Starts the diagnostics of {@code engine}: registers the MBean, emits the start event and starts the
     * watchdog unless {@code thresholdNanos} is 0.
     */
    public static Diagnostics start(Engine engine, long thresholdNanos, Source source) {
        Diagnostics d = new Diagnostics(engine, thresholdNanos, source);
        engine.setHooks(d);
        LIVE.add(d);
        Jfr.schedulerStart(engine.name(), engine.workerCount());
        if (d.thread != null) {
            d.thread.start();
        }
        return d;
    }

    @Override
    public void uncaught(FiberBase<?> fiber, Throwable e) {
        Jfr.uncaught(engine.name(), fiber == null ? -1 : DumpText.idOf(fiber),
                fiber == null ? null : engine.fiberName(fiber), e);
    }

    @Override
    public void terminated() {
        stopped = true;
        LIVE.remove(this);
        Management.unregister(mbean);
        Jfr.schedulerClose(engine.name());
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    private void starving(Starvation s) {
        Log.warn(s.message());
        Jfr.starvation(s);
    }

    private void watch() {
        long period = Math.max(1, watchdog.thresholdNanos() / 2);
        while (!stopped) {
            LockSupport.parkNanos(this, period);
            if (stopped) {
                return;
            }
            long lateness = returnedLateness;
            if (lateness != NO_LATENESS) {
                returnedLateness = NO_LATENESS;
                probeOut = false;
                probeReturned(lateness);
            }
            watchdog.sample(System.nanoTime());
            if (!probeOut && !engine.isSingleThreaded() && engine.hasBusyWorker()) {
                probeOut = true;
                engine.pushGlobal(new Probe(System.nanoTime()));
            }
        }
    }

    private void probeReturned(long lateness) {
        if (lateness <= watchdog.thresholdNanos()) {
            latenessWarned = false;
            return;
        }
        Jfr.timerLateness(engine.name(), lateness);
        if (!latenessWarned) {
            latenessWarned = true;
            Log.warn("scheduler \"" + engine.name() + "\": work falling due waited "
                    + TimeUnit.NANOSECONDS.toMillis(lateness) + " ms for a worker (threshold "
                    + TimeUnit.NANOSECONDS.toMillis(watchdog.thresholdNanos())
                    + " ms): timers fire late and queued fibers wait; busy or blocked workers are the cause");
        }
    }

    private static Iterable<SchedulerMetrics> allMetrics() {
        List<SchedulerMetrics> out = new ArrayList<>();
        for (Diagnostics d : LIVE) {
            out.add(d.source.metrics());
        }
        return out;
    }

    private static void lookForBlocked() {
        for (Diagnostics d : LIVE) {
            for (BlockedTracker.Report r : d.blocked.update(d.source.dump(), System.nanoTime())) {
                FiberSnapshot f = r.fiber();
                Jfr.blocked(d.engine.name(), f.id(), f.name(), f.blockedOn(), r.blockedNanos());
            }
        }
    }

    /** The probe: measures how long an item pushed on the global queue waits for a worker. */
    private final class Probe extends Work {
        private final long sent;

        Probe(long sent) {
            this.sent = sent;
        }

        @Override
        public void doWork(Worker w) {
            returnedLateness = Math.max(0, System.nanoTime() - sent);
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            returnedLateness = 0;
        }
    }
}
