package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Schedulers register their MBeans once the platform MBean server exists, which {@link #await} makes (and
 * unregister after termination), each within a moment: waits for it.
 */
final class MBeans {
    private MBeans() {
    }

    /** The object name of scheduler {@code name}, quoted as the runtime quotes it. */
    static ObjectName of(String name) throws MalformedObjectNameException {
        boolean plain = name.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.');
        return new ObjectName("dev.spindle:type=Scheduler,name=" + (plain ? name : ObjectName.quote(name)));
    }

    /** Waits (up to 30 s) until the MBean of scheduler {@code name} is registered, or not. */
    static void await(String name, boolean registered) throws Exception {
        waitFor(name, registered);
        assertThat(isRegistered(name)).as("%s registered", of(name)).isEqualTo(registered);
    }

    /** Waits (up to 30 s) until the MBean of scheduler {@code name} is registered, or not; true if it came to be. */
    static boolean waitFor(String name, boolean registered) throws Exception {
        ObjectName on = of(name);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (isRegistered(on) != registered && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        return isRegistered(on) == registered;
    }

    /** Whether the MBean of scheduler {@code name} is registered (creating the platform server if need be). */
    static boolean isRegistered(String name) throws MalformedObjectNameException {
        return isRegistered(of(name));
    }

    private static boolean isRegistered(ObjectName on) {
        return ManagementFactory.getPlatformMBeanServer().isRegistered(on);
    }
}
