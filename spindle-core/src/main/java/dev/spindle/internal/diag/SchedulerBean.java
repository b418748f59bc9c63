package dev.spindle.internal.diag;

import dev.spindle.SchedulerMXBean;
import dev.spindle.SchedulerMetrics;
import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;

/** The MBean of one scheduler: its metrics as attributes, fiber dumps as operations. */
final class SchedulerBean implements SchedulerMXBean {
    private final String name;
    private final Diagnostics.Source source;

    private SchedulerBean(String name, Diagnostics.Source source) {
        this.name = name;
        this.source = source;
    }

    /** {@code dev.spindle:type=Scheduler,name=<name>}, the name quoted where it must be. */
    static ObjectName objectName(String scheduler) throws JMException {
        boolean plain = !scheduler.isEmpty() && scheduler.chars().allMatch(
                c -> Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.');
        return new ObjectName("dev.spindle:type=Scheduler,name=" + (plain ? scheduler : ObjectName.quote(scheduler)));
    }

    /**
     * Whether the platform MBean server exists, without creating it: it is made by
     * {@code MBeanServerFactory.createMBeanServer}, which lists what it made. Another server made that way
     * (rare) makes the next registration create the platform one.
     */
    static boolean platformServerExists() {
        try {
            return !MBeanServerFactory.findMBeanServer(null).isEmpty();
        } catch (RuntimeException e) { // a security manager's refusal (JDK 21-23): let register report it
            return true;
        }
    }

    static Object register(String scheduler, Diagnostics.Source source) {
        try {
            ObjectName on = objectName(scheduler);
            ManagementFactory.getPlatformMBeanServer().registerMBean(new SchedulerBean(scheduler, source), on);
            return on;
        } catch (JMException | RuntimeException e) {
            Log.warn("scheduler \"" + scheduler + "\" has no MBean: " + e);
            return null;
        }
    }

    static void unregister(Object handle) {
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean((ObjectName) handle);
        } catch (JMException | RuntimeException e) {
            Log.warn("could not unregister " + handle + ": " + e);
        }
    }

    private SchedulerMetrics m() {
        return source.metrics();
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public int getWorkers() {
        return m().workers();
    }

    @Override
    public long getLiveFibers() {
        return m().liveFibers();
    }

    @Override
    public long getRunnableItems() {
        return m().runnableItems();
    }

    @Override
    public long getPendingTimers() {
        return m().pendingTimers();
    }

    @Override
    public long getFibersStarted() {
        return m().fibersStarted();
    }

    @Override
    public long getFibersFinished() {
        return m().fibersFinished();
    }

    @Override
    public long getParks() {
        return m().parks();
    }

    @Override
    public long getWakeups() {
        return m().wakeups();
    }

    @Override
    public long getSharedItems() {
        return m().sharedItems();
    }

    @Override
    public long getUncaughtFailures() {
        return m().uncaughtFailures();
    }

    @Override
    public String dumpFibers() {
        return source.dump().toText();
    }

    @Override
    public String dumpFibersJson() {
        return source.dump().toJson();
    }
}
