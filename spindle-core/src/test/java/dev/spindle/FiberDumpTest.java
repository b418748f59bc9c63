package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fiber dumps: two fibers deadlocked on each other's IVar are listed by name with what each waits on, in
 * the tree of their parent, from {@link Scheduler#dump()} and through the scheduler's MBean over a JMX
 * connection; the JSON form parses and carries the same content.
 */
@Timeout(60)
class FiberDumpTest {
    /** Starts "a" (reads IVar "b", then fills "a") and "b" (the other way round) under a fiber "main". */
    private final IVar<Integer> a = new IVar<>("a");
    private final IVar<Integer> b = new IVar<>("b");

    private CompletableFuture<Void> deadlock(Scheduler s) {
        Job<Void> fa = b.read().flatMap(x -> a.fill(x)).named("a");
        Job<Void> fb = a.read().flatMap(x -> b.fill(x)).named("b");
        return s.submit(fa.start().flatMap(x -> fb.start().flatMap(y -> x.join().then(y.join()))).named("main"));
    }

    /** Dumps until "main", "a" and "b" are all blocked (they block soon after the submit). */
    private static FiberDump blockedDump(Scheduler s) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            FiberDump d = s.dump();
            if (d.fibers().size() == 3 && d.fibers().stream().allMatch(f -> f.state() == FiberSnapshot.State.BLOCKED)) {
                return d;
            }
            assertThat(System.nanoTime() - deadline).as("fibers blocked in time; last dump:\n%s", d).isNegative();
            Thread.sleep(5);
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4})
    void theIVarDeadlockShowsBothFibersAndWhatEachWaitsOn(int workers) throws Exception {
        Scheduler s = Scheduler.builder().workers(workers).name("deadlock-" + workers).build();
        try {
            deadlock(s);
            FiberDump d = blockedDump(s);
            FiberSnapshot main = d.named("main").get(0);
            FiberSnapshot a = d.named("a").get(0);
            FiberSnapshot b = d.named("b").get(0);
            // the primitive names itself (its toString, like IVar "b" (empty))
            assertThat(a.blockedOn()).isEqualTo(this.b.toString()).contains("b");
            assertThat(b.blockedOn()).isEqualTo(this.a.toString()).contains("a");
            assertThat(main.blockedOn()).isEqualTo("join of fiber-" + a.id() + " \"a\"");
            assertThat(main.children()).containsExactly(b.id(), a.id());
            assertThat(a.parent()).isEqualTo(main.id());
            assertThat(b.parent()).isEqualTo(main.id());
            assertThat(main.parent()).isEqualTo(-1);
            assertThat(d.scheduler()).isEqualTo("deadlock-" + workers);
            assertThat(d.workers()).isEqualTo(workers);
            assertThat(d.toText().lines().skip(1).toList()).containsExactly(
                    "fiber-" + main.id() + " \"main\" waits on join of fiber-" + a.id() + " \"a\"",
                    "  fiber-" + b.id() + " \"b\" waits on " + this.a,
                    "  fiber-" + a.id() + " \"a\" waits on " + this.b);
            assertThat(d.toText()).startsWith("fiber dump of scheduler \"deadlock-" + workers + "\" at ");

            MBeans.await("deadlock-" + workers, true);
            String viaJmx = dumpOverJmx("deadlock-" + workers);
            assertThat(viaJmx.lines().skip(1).toList()).isEqualTo(d.toText().lines().skip(1).toList());
        } finally {
            shutdownNowOrDump(s);
        }
        MBeans.await("deadlock-" + workers, false); // unregistered once terminated
    }

    /**
     * {@link Scheduler#shutdownNow()} on a helper thread; if the scheduler has not terminated within the hang
     * guard, fails with a dump and the metrics of what is still live instead of hanging in its wait.
     */
    private static void shutdownNowOrDump(Scheduler s) {
        HelperThread stopper = HelperThread.start("shutdownNow of " + s.name(), s::shutdownNow);
        try {
            Await.until(s::isTerminated, "scheduler " + s.name() + " to terminate after shutdownNow");
        } catch (AssertionError hung) {
            throw new AssertionError(hung.getMessage() + "; still live:\n" + s.dump() + "\n" + s.metrics(), hung);
        }
        stopper.join();
    }

    /** Connects to this JVM's platform MBean server through an RMI connector on loopback and dumps. */
    private static String dumpOverJmx(String scheduler) throws Exception {
        JMXConnectorServer server = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("service:jmx:rmi://127.0.0.1"), null, ManagementFactory.getPlatformMBeanServer());
        server.start();
        try (JMXConnector client = JMXConnectorFactory.connect(server.getAddress())) {
            MBeanServerConnection c = client.getMBeanServerConnection();
            ObjectName name = new ObjectName("dev.spindle:type=Scheduler,name=" + scheduler);
            assertThat(c.getAttribute(name, "LiveFibers")).isEqualTo(3L);
            SchedulerMXBean bean = JMX.newMXBeanProxy(c, name, SchedulerMXBean.class);
            assertThat(bean.getName()).isEqualTo(scheduler);
            return bean.dumpFibers();
        } finally {
            server.stop();
        }
    }

    @Test
    void theJsonDumpParsesAndCarriesTheSameFibers() throws Exception {
        Scheduler s = Scheduler.builder().workers(2).name("json \"quoted\", name").build();
        try {
            deadlock(s);
            FiberDump d = blockedDump(s);
            JsonNode root = new ObjectMapper().readTree(d.toJson());
            assertThat(root.get("scheduler").asText()).isEqualTo("json \"quoted\", name");
            assertThat(root.get("time").asText()).isEqualTo(d.time().toString());
            assertThat(root.get("workers").asInt()).isEqualTo(2);
            assertThat(root.get("fibers")).hasSize(3);
            for (int i = 0; i < 3; i++) {
                JsonNode j = root.get("fibers").get(i);
                FiberSnapshot f = d.fibers().get(i);
                assertThat(j.get("id").asLong()).isEqualTo(f.id());
                assertThat(j.get("name").asText()).isEqualTo(f.name());
                assertThat(j.get("state").asText()).isEqualTo("BLOCKED");
                assertThat(j.get("blockedOn").asText()).isEqualTo(f.blockedOn());
                assertThat(j.get("worker").isNull()).isTrue();
                assertThat(j.get("parent").isNull()).isEqualTo(f.parent() < 0);
                assertThat(j.get("children")).hasSize(f.children().size());
                assertThat(j.get("cancelRequested").asBoolean()).isFalse();
            }
            assertThat(MBeans.of(s.name()).toString()).endsWith("name=" + ObjectName.quote(s.name()));
            MBeans.await(s.name(), true);
        } finally {
            shutdownNowOrDump(s);
        }
    }

    @Test
    void aSleeperARunnerAndToStringShowNamesAndIds() throws Exception {
        Scheduler s = Scheduler.builder().workers(1).name("states").build();
        try {
            CompletableFuture<Void> gate = new CompletableFuture<>();
            Fiber<?>[] sleeper = new Fiber<?>[1];
            s.submit(Job.sleep(Duration.ofHours(1)).named("sleeper").startDetached().map(f -> {
                sleeper[0] = f;
                return f;
            })).get();
            s.submit(Job.run(() -> gate.join()).named("spinner"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            FiberDump d;
            do {
                d = s.dump();
                Thread.sleep(5);
            } while ((d.named("spinner").isEmpty() || d.named("spinner").get(0).state() != FiberSnapshot.State.RUNNING
                    || d.named("sleeper").get(0).state() != FiberSnapshot.State.SLEEPING) && System.nanoTime() < deadline);
            FiberSnapshot spinner = d.named("spinner").get(0);
            assertThat(spinner.state()).isEqualTo(FiberSnapshot.State.RUNNING);
            assertThat(spinner.worker()).isEqualTo("states-worker-0");
            FiberSnapshot sl = d.named("sleeper").get(0);
            assertThat(sl.state()).isEqualTo(FiberSnapshot.State.SLEEPING);
            assertThat(sl.blockedOn()).startsWith("timer due in ");
            assertThat(sleeper[0].toString()).startsWith("fiber-" + sl.id() + " \"sleeper\" [running, last blocked on timer");
            gate.complete(null);
        } finally {
            s.shutdownNow();
        }
    }
}
