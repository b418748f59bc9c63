package dev.spindle;

/**
 * The management interface of a running {@link Scheduler}, registered with the platform MBean server
 * under {@code dev.spindle:type=Scheduler,name=<the scheduler's name>} (quoted with
 * {@link javax.management.ObjectName#quote} when the name needs it) while the scheduler runs, and
 * unregistered when it terminates. JConsole, VisualVM or any JMX client can read the counters of
 * {@link SchedulerMetrics} as attributes and take a fiber dump with {@link #dumpFibers()}.
 */
public interface SchedulerMXBean {
    /** The scheduler's name. */
    String getName();

    /** See {@link SchedulerMetrics#workers()}. */
    int getWorkers();

    /** See {@link SchedulerMetrics#liveFibers()}. */
    long getLiveFibers();

    /** See {@link SchedulerMetrics#runnableItems()}. */
    long getRunnableItems();

    /** See {@link SchedulerMetrics#pendingTimers()}. */
    long getPendingTimers();

    /** See {@link SchedulerMetrics#fibersStarted()}. */
    long getFibersStarted();

    /** See {@link SchedulerMetrics#fibersFinished()}. */
    long getFibersFinished();

    /** See {@link SchedulerMetrics#parks()}. */
    long getParks();

    /** See {@link SchedulerMetrics#wakeups()}. */
    long getWakeups();

    /** See {@link SchedulerMetrics#sharedItems()}. */
    long getSharedItems();

    /** See {@link SchedulerMetrics#uncaughtFailures()}. */
    long getUncaughtFailures();

    /** A fiber dump as text: {@link FiberDump#toText()}. */
    String dumpFibers();

    /** A fiber dump as JSON: {@link FiberDump#toJson()}. */
    String dumpFibersJson();
}
