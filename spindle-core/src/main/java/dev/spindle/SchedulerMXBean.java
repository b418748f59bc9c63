package dev.spindle;

/**
 * The management interface of a running {@link Scheduler}, registered with the platform MBean server
 * under {@code dev.spindle:type=Scheduler,name=<the scheduler's name>} (quoted with
 * {@link javax.management.ObjectName#quote} when the name needs it) while the scheduler runs, and
 * unregistered when it terminates. JConsole, VisualVM or any JMX client can read the counters of
 * {@link SchedulerMetrics} as attributes and take a fiber dump with {@link #dumpFibers()}.
 *
 * <p>Spindle never creates the platform MBean server itself (that costs a quarter of a second of CPU at
 * start-up): the MBean appears once the server exists, within half a second of its creation by a JMX agent,
 * an attaching JConsole or VisualVM, or the application. {@code -Dspindle.jmx.disabled=true} turns it off.
 */
public interface SchedulerMXBean {
    /** {@return the scheduler's name} */
    String getName();

    /** {@return the number of worker threads} See {@link SchedulerMetrics#workers()}. */
    int getWorkers();

    /** {@return the number of fibers started and not yet finished} See {@link SchedulerMetrics#liveFibers()}. */
    long getLiveFibers();

    /** {@return an estimate of the work items queued and ready to run} See {@link SchedulerMetrics#runnableItems()}. */
    long getRunnableItems();

    /** {@return the number of timers armed and not yet fired} See {@link SchedulerMetrics#pendingTimers()}. */
    long getPendingTimers();

    /** {@return the number of fibers started so far} See {@link SchedulerMetrics#fibersStarted()}. */
    long getFibersStarted();

    /** {@return the number of fibers finished so far} See {@link SchedulerMetrics#fibersFinished()}. */
    long getFibersFinished();

    /** {@return how many times a worker found nothing to do and parked} See {@link SchedulerMetrics#parks()}. */
    long getParks();

    /** {@return how many parks ended because work had come} See {@link SchedulerMetrics#wakeups()}. */
    long getWakeups();

    /** {@return how many times a busy worker handed work to idle ones} See {@link SchedulerMetrics#sharedItems()}. */
    long getSharedItems();

    /** {@return how many failures reached the uncaught handler} See {@link SchedulerMetrics#uncaughtFailures()}. */
    long getUncaughtFailures();

    /** {@return a fiber dump as text: {@link FiberDump#toText()}} */
    String dumpFibers();

    /** {@return a fiber dump as JSON: {@link FiberDump#toJson()}} */
    String dumpFibersJson();
}
