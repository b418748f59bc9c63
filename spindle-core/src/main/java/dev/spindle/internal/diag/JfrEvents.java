package dev.spindle.internal.diag;

import dev.spindle.SchedulerMetrics;
import java.util.function.Supplier;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** The JFR event types of Spindle and their emission; loaded only when jdk.jfr is present ({@link Jfr}). */
final class JfrEvents {
    private JfrEvents() {
    }

    static void schedulerStart(String scheduler, int workers) {
        SchedulerStart e = new SchedulerStart();
        if (e.shouldCommit()) {
            e.scheduler = scheduler;
            e.workers = workers;
            e.commit();
        }
    }

    static void schedulerClose(String scheduler) {
        SchedulerClose e = new SchedulerClose();
        if (e.shouldCommit()) {
            e.scheduler = scheduler;
            e.commit();
        }
    }

    static void starvation(Starvation s) {
        WorkerStarvation e = new WorkerStarvation();
        if (e.shouldCommit()) {
            e.scheduler = s.scheduler();
            e.worker = s.worker();
            e.fiberId = s.fiberId();
            e.fiberName = s.fiberName();
            e.stuckFor = s.stuckFor().toNanos();
            e.workerStack = s.stackText();
            e.commit();
        }
    }

    static void uncaught(String scheduler, long fiberId, String fiberName, Throwable t) {
        UncaughtFailure e = new UncaughtFailure();
        if (e.shouldCommit()) {
            e.scheduler = scheduler;
            e.fiberId = fiberId;
            e.fiberName = fiberName;
            e.failure = t.getClass().getName();
            e.message = t.getMessage();
            e.commit();
        }
    }

    static void timerLateness(String scheduler, long latenessNanos) {
        TimerLateness e = new TimerLateness();
        if (e.shouldCommit()) {
            e.scheduler = scheduler;
            e.lateness = latenessNanos;
            e.commit();
        }
    }

    /** Registers the periodic hook of FiberBlocked: {@code look} emits what it finds with {@link #blocked}. */
    static void registerBlocked(Runnable look) {
        FlightRecorder.addPeriodicEvent(FiberBlocked.class, look);
    }

    static void blocked(String scheduler, long fiberId, String fiberName, String blockedOn, long nanos) {
        FiberBlocked e = new FiberBlocked();
        e.scheduler = scheduler;
        e.fiberId = fiberId;
        e.fiberName = fiberName;
        e.blockedOn = blockedOn;
        e.blockedFor = nanos;
        e.commit();
    }

    static void registerStatistics(Supplier<Iterable<SchedulerMetrics>> all) {
        FlightRecorder.addPeriodicEvent(SchedulerStatistics.class, () -> {
            for (SchedulerMetrics m : all.get()) {
                SchedulerStatistics e = new SchedulerStatistics();
                e.scheduler = m.scheduler();
                e.workers = m.workers();
                e.liveFibers = m.liveFibers();
                e.runnableItems = m.runnableItems();
                e.pendingTimers = m.pendingTimers();
                e.fibersStarted = m.fibersStarted();
                e.fibersFinished = m.fibersFinished();
                e.parks = m.parks();
                e.wakeups = m.wakeups();
                e.sharedItems = m.sharedItems();
                e.uncaughtFailures = m.uncaughtFailures();
                e.commit();
            }
        });
    }

    @Name("dev.spindle.SchedulerStart")
    @Label("Scheduler Start")
    @Category("Spindle")
    @StackTrace(false)
    static final class SchedulerStart extends Event {
        @Label("Scheduler")
        String scheduler;
        @Label("Workers")
        int workers;
    }

    @Name("dev.spindle.SchedulerClose")
    @Label("Scheduler Close")
    @Category("Spindle")
    @StackTrace(false)
    static final class SchedulerClose extends Event {
        @Label("Scheduler")
        String scheduler;
    }

    @Name("dev.spindle.WorkerStarvation")
    @Label("Worker Starvation")
    @Description("A worker has been inside one work item for longer than the scheduler's threshold")
    @Category("Spindle")
    @StackTrace(false) // the committing thread is the watchdog; the worker's stack is a field
    static final class WorkerStarvation extends Event {
        @Label("Scheduler")
        String scheduler;
        @Label("Worker")
        String worker;
        @Label("Fiber Id")
        long fiberId;
        @Label("Fiber Name")
        String fiberName;
        @Label("Stuck For")
        @Timespan(Timespan.NANOSECONDS)
        long stuckFor;
        @Label("Worker Stack")
        String workerStack;
    }

    @Name("dev.spindle.FiberBlocked")
    @Label("Fiber Blocked")
    @Description("A fiber has waited on the same primitive for at least a second (seen in dumps taken at the"
            + " event's period; off by default, since each look takes a fiber dump)")
    @Category("Spindle")
    @Period("1 s")
    @Enabled(false)
    @StackTrace(false)
    static final class FiberBlocked extends Event {
        @Label("Scheduler")
        String scheduler;
        @Label("Fiber Id")
        long fiberId;
        @Label("Fiber Name")
        String fiberName;
        @Label("Blocked On")
        String blockedOn;
        @Label("Blocked For")
        @Timespan(Timespan.NANOSECONDS)
        long blockedFor;
    }

    @Name("dev.spindle.UncaughtFailure")
    @Label("Uncaught Failure")
    @Description("A failure nobody observes reached the scheduler's uncaught handler")
    @Category("Spindle")
    static final class UncaughtFailure extends Event {
        @Label("Scheduler")
        String scheduler;
        @Label("Fiber Id")
        long fiberId;
        @Label("Fiber Name")
        String fiberName;
        @Label("Failure")
        String failure;
        @Label("Message")
        String message;
    }

    @Name("dev.spindle.TimerLateness")
    @Label("Timer Lateness")
    @Description("Work falling due waited longer than the scheduler's threshold for a worker")
    @Category("Spindle")
    @StackTrace(false)
    static final class TimerLateness extends Event {
        @Label("Scheduler")
        String scheduler;
        @Label("Lateness")
        @Timespan(Timespan.NANOSECONDS)
        long lateness;
    }

    @Name("dev.spindle.SchedulerStatistics")
    @Label("Scheduler Statistics")
    @Category("Spindle")
    @Period("1 s")
    @StackTrace(false)
    static final class SchedulerStatistics extends Event {
        @Label("Scheduler")
        String scheduler;
        @Label("Workers")
        int workers;
        @Label("Live Fibers")
        long liveFibers;
        @Label("Runnable Items")
        long runnableItems;
        @Label("Pending Timers")
        long pendingTimers;
        @Label("Fibers Started")
        long fibersStarted;
        @Label("Fibers Finished")
        long fibersFinished;
        @Label("Parks")
        long parks;
        @Label("Wake-ups")
        long wakeups;
        @Label("Shared Items")
        long sharedItems;
        @Label("Uncaught Failures")
        long uncaughtFailures;
    }
}
