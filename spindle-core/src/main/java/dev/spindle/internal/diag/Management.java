package dev.spindle.internal.diag;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Registers schedulers with the platform MBean server when {@code java.management} is present; does
 * nothing otherwise. {@link SchedulerBean} is the only class that names JMX types, loaded only then.
 *
 * <p>Spindle never creates the platform MBean server: creating it costs some hundred milliseconds of CPU
 * (class loading and the platform MXBeans), which a program that nobody watches over JMX should not pay
 * while its first fibers run. A scheduler's MBean is registered as soon as the server exists: at once when
 * it does already, otherwise within {@link #LOOK_MILLIS} of its creation (a JMX agent starting, JConsole
 * or VisualVM attaching, the application calling {@code ManagementFactory.getPlatformMBeanServer()}).
 * Registration, the looks and unregistration run in order on one daemon thread that ends when idle, so
 * building a scheduler waits for none of them. {@code -Dspindle.jmx.disabled=true} turns the MBeans off.
 */
final class Management {
    /** How often schedulers waiting for the platform MBean server look whether it exists. */
    static final long LOOK_MILLIS = 500;

    private static final boolean AVAILABLE = detect();
    private static final ScheduledThreadPoolExecutor REGISTRAR = registrar();
    /** Registrations waiting for the platform MBean server, oldest first. Registrar thread only. */
    private static final List<Registration> WAITING = new ArrayList<>();
    /** Whether a look is scheduled. Registrar thread only. */
    private static boolean lookScheduled;

    private Management() {
    }

    private static boolean detect() {
        if (Boolean.getBoolean("spindle.jmx.disabled")) {
            return false;
        }
        try {
            Module jmx = Class.forName("java.lang.management.ManagementFactory").getModule();
            return Management.class.getModule().canRead(jmx);
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static ScheduledThreadPoolExecutor registrar() {
        ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "spindle-mbean-registrar");
            t.setDaemon(true);
            return t;
        });
        // A scheduled look keeps the thread alive (the queue is not empty); it ends once nothing is left.
        e.setKeepAliveTime(1, TimeUnit.SECONDS);
        e.allowCoreThreadTimeOut(true);
        return e;
    }

    /** One scheduler's MBean: waiting, registered (name set), or dropped. Registrar thread only. */
    private static final class Registration {
        final String scheduler;
        final Diagnostics.Source source;
        /** The object name once registered; null while waiting, or when registering failed. */
        Object name;

        Registration(String scheduler, Diagnostics.Source source) {
            this.scheduler = scheduler;
            this.source = source;
        }
    }

    /** Registers the scheduler's MBean, when the class comment says; returns a handle for {@link #unregister}. */
    static Object register(String scheduler, Diagnostics.Source source) {
        if (!AVAILABLE) {
            return null;
        }
        Registration r = new Registration(scheduler, source);
        REGISTRAR.execute(() -> {
            WAITING.add(r);
            registerWaiting();
        });
        return r;
    }

    /** Unregisters what {@link #register} gave (null: nothing); a registration still waiting is dropped. */
    static void unregister(Object handle) {
        if (handle != null) {
            Registration r = (Registration) handle;
            REGISTRAR.execute(() -> {
                if (!WAITING.remove(r) && r.name != null) {
                    SchedulerBean.unregister(r.name);
                }
            });
        }
    }

    /** Registers every waiting scheduler if the platform MBean server exists; else schedules another look. */
    private static void registerWaiting() {
        if (WAITING.isEmpty()) {
            return;
        }
        if (SchedulerBean.platformServerExists()) {
            for (Registration r : WAITING) {
                r.name = SchedulerBean.register(r.scheduler, r.source);
            }
            WAITING.clear();
        } else if (!lookScheduled) {
            lookScheduled = true;
            REGISTRAR.schedule(() -> {
                lookScheduled = false;
                registerWaiting();
            }, LOOK_MILLIS, TimeUnit.MILLISECONDS);
        }
    }
}
