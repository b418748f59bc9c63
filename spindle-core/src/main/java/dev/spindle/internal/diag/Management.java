package dev.spindle.internal.diag;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Registers schedulers with the platform MBean server when {@code java.management} is present; does
 * nothing otherwise. {@link SchedulerBean} is the only class that names JMX types, loaded only then.
 *
 * <p>Registration and unregistration run, in order, on one daemon thread that ends when idle: the first
 * use of the platform MBean server creates it, some hundred milliseconds of class loading that building a
 * scheduler must not wait for. So a scheduler's MBean appears a moment after {@code build()} returns.
 * {@code -Dspindle.jmx.disabled=true} turns the MBeans off.
 */
final class Management {
    private static final boolean AVAILABLE = detect();
    private static final Executor REGISTRAR = registrar();

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

    private static Executor registrar() {
        ThreadPoolExecutor e = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "spindle-mbean-registrar");
            t.setDaemon(true);
            return t;
        });
        e.allowCoreThreadTimeOut(true);
        return e;
    }

    /** Registers the scheduler's MBean (soon, on the registrar); returns a handle for {@link #unregister}. */
    static Object register(String scheduler, Diagnostics.Source source) {
        if (!AVAILABLE) {
            return null;
        }
        Object[] handle = new Object[1]; // written and read on the registrar thread only
        REGISTRAR.execute(() -> handle[0] = SchedulerBean.register(scheduler, source));
        return handle;
    }

    /** Unregisters what {@link #register} gave (null: nothing), after the registration. */
    static void unregister(Object handle) {
        if (handle != null) {
            REGISTRAR.execute(() -> {
                Object registered = ((Object[]) handle)[0];
                if (registered != null) {
                    SchedulerBean.unregister(registered);
                }
            });
        }
    }
}
