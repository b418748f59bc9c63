package dev.spindle;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.MBeanServerFactory;

/**
 * The JVM of its own that {@link MBeanRegistrationTest} starts: in a fresh JVM nothing has made the
 * platform MBean server yet. Prints each failed check and exits with status 1 if there was one.
 */
final class MBeanRegistrationProgram {
    /** Three of the registrar's looks for the platform MBean server, and a margin. */
    private static final long LOOKS_MILLIS = 2_000;

    private final List<String> failures = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        MBeanRegistrationProgram p = new MBeanRegistrationProgram();
        p.check();
        p.failures.forEach(System.out::println);
        System.exit(p.failures.isEmpty() ? 0 : 1);
    }

    private void check() throws Exception {
        Scheduler early = Scheduler.builder().name("early").build();
        Scheduler closedEarly = Scheduler.builder().name("closed-early").build();
        try {
            expect(early.run(Job.result(1)) == 1, "early scheduler ran");
            closedEarly.close();
            Thread.sleep(LOOKS_MILLIS);
            expect(MBeanServerFactory.findMBeanServer(null).isEmpty(),
                    "no platform MBean server while nobody asked for one");

            ManagementFactory.getPlatformMBeanServer();
            expect(MBeans.waitFor("early", true), "early scheduler registered once the server exists");
            Thread.sleep(LOOKS_MILLIS);
            expect(!MBeans.isRegistered("closed-early"),
                    "a scheduler closed before the server existed never registers");
            try (Scheduler late = Scheduler.builder().name("late").build()) {
                expect(late.run(Job.result(2)) == 2, "late scheduler ran");
                expect(MBeans.waitFor("late", true), "a scheduler built after the server registers");
            }
            expect(MBeans.waitFor("late", false), "late scheduler unregistered once closed");
        } finally {
            early.close();
        }
        expect(MBeans.waitFor("early", false), "early scheduler unregistered once closed");
    }

    private void expect(boolean held, String what) {
        if (!held) {
            failures.add("FAILED: " + what);
        }
    }
}
