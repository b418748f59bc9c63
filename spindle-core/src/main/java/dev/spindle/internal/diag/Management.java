package dev.spindle.internal.diag;

/**
 * Registers schedulers with the platform MBean server when {@code java.management} is present; does
 * nothing otherwise. {@link SchedulerBean} is the only class that names JMX types, loaded only then.
 */
final class Management {
    private static final boolean AVAILABLE = detect();

    private Management() {
    }

    private static boolean detect() {
        try {
            Module jmx = Class.forName("java.lang.management.ManagementFactory").getModule();
            return Management.class.getModule().canRead(jmx);
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Registers the scheduler's MBean; returns a handle for {@link #unregister}, or null. */
    static Object register(String scheduler, Diagnostics.Source source) {
        return AVAILABLE ? SchedulerBean.register(scheduler, source) : null;
    }

    /** Unregisters what {@link #register} gave (null: nothing). */
    static void unregister(Object handle) {
        if (handle != null) {
            SchedulerBean.unregister(handle);
        }
    }
}
