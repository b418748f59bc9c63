package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A JFR recording stream sees the scheduler's events with their fields: start and close, a worker's
 * starvation (a job that sleeps in {@code Thread.sleep} until the event has been seen), an uncaught
 * failure of a named fire-and-forget fiber, the periodic statistics, and a fiber blocked for a second; and
 * the timer-lateness probe's report, which the watchdog thread gives (with the warning logged beside it), not
 * the worker that runs the probe: logging formats and writes, and may block, which a worker must not do.
 */
@Timeout(120)
class JfrEventsTest {
    private final List<RecordedEvent> events = new CopyOnWriteArrayList<>();

    private RecordedEvent await(String type, Predicate<RecordedEvent> p) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            for (RecordedEvent e : events) {
                if (e.getEventType().getName().equals(type) && p.test(e)) {
                    return e;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no " + type + " event within 60 s; saw " + events.size() + " events");
    }

    private static boolean of(RecordedEvent e, String scheduler) {
        return scheduler.equals(e.getString("scheduler"));
    }

    private volatile boolean seen;

    private void blockUntilSeen() {
        while (!seen) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Test
    void aRecordingSeesStarvationUncaughtFailuresAndStatistics() throws Exception {
        try (RecordingStream rs = new RecordingStream()) {
            for (String e : List.of("SchedulerStart", "SchedulerClose", "WorkerStarvation", "UncaughtFailure",
                    "TimerLateness")) {
                rs.enable("dev.spindle." + e);
            }
            rs.enable("dev.spindle.SchedulerStatistics").withPeriod(Duration.ofMillis(100));
            rs.enable("dev.spindle.FiberBlocked").withPeriod(Duration.ofMillis(200));
            rs.onEvent(events::add);
            rs.startAsync();

            String name = "jfr-test";
            Scheduler s = Scheduler.builder().workers(2).name(name)
                    .starvationThreshold(Duration.ofMillis(50)).build();
            RecordedEvent start = await("dev.spindle.SchedulerStart", e -> of(e, name));
            assertThat(start.getInt("workers")).isEqualTo(2);

            var stuck = s.submit(Job.run(this::blockUntilSeen).named("stuck"));
            RecordedEvent starving = await("dev.spindle.WorkerStarvation", e -> of(e, name));
            seen = true;
            stuck.get(60, TimeUnit.SECONDS);
            assertThat(starving.getString("fiberName")).isEqualTo("stuck");
            assertThat(starving.getLong("fiberId")).isPositive();
            assertThat(starving.getString("worker")).startsWith(name + "-worker-");
            assertThat(starving.getDuration("stuckFor")).isGreaterThanOrEqualTo(Duration.ofMillis(50));
            assertThat(starving.getString("workerStack")).contains("java.lang.Thread.sleep")
                    .contains("JfrEventsTest.blockUntilSeen");

            s.run(Job.failure(new IllegalStateException("nobody waits for me")).named("doomed").forget());
            RecordedEvent failure = await("dev.spindle.UncaughtFailure", e -> of(e, name));
            assertThat(failure.getString("fiberName")).isEqualTo("doomed");
            assertThat(failure.getString("failure")).isEqualTo("java.lang.IllegalStateException");
            assertThat(failure.getString("message")).isEqualTo("nobody waits for me");

            RecordedEvent stats = await("dev.spindle.SchedulerStatistics",
                    e -> of(e, name) && e.getLong("uncaughtFailures") == 1 && e.getLong("fibersFinished") >= 3);
            assertThat(stats.getInt("workers")).isEqualTo(2);
            assertThat(stats.getLong("fibersStarted")).isGreaterThanOrEqualTo(3);

            IVar<String> never = new IVar<>("never");
            s.submit(never.read().named("waiter"));
            RecordedEvent blocked = await("dev.spindle.FiberBlocked", e -> of(e, name));
            assertThat(blocked.getString("fiberName")).isEqualTo("waiter");
            assertThat(blocked.getString("blockedOn")).isEqualTo(never.toString());
            assertThat(blocked.getDuration("blockedFor")).isGreaterThanOrEqualTo(Duration.ofSeconds(1));

            s.shutdownNow();
            await("dev.spindle.SchedulerClose", e -> of(e, name));
        }
    }

    @Test
    void theLatenessProbeIsReportedByTheWatchdogThreadNotByAWorker() throws Exception {
        try (RecordingStream rs = new RecordingStream()) {
            rs.enable("dev.spindle.WorkerStarvation");
            rs.enable("dev.spindle.TimerLateness");
            rs.onEvent(events::add);
            rs.startAsync();

            String name = "jfr-probe-test";
            Scheduler s = Scheduler.builder().workers(2).name(name)
                    .starvationThreshold(Duration.ofMillis(50)).build();
            CountDownLatch release = new CountDownLatch(1);
            try {
                for (int i = 0; i < 2; i++) {
                    s.submit(Job.run(() -> Await.latch(release, "the test's release")).named("holder-" + i));
                }
                // Both workers held: once the watchdog has seen each stuck past the threshold, a probe is out;
                // holding them 200 ms longer makes its wait pass the threshold too.
                await("dev.spindle.WorkerStarvation", e -> of(e, name) && e.getString("fiberName").equals("holder-0"));
                await("dev.spindle.WorkerStarvation", e -> of(e, name) && e.getString("fiberName").equals("holder-1"));
                Thread.sleep(200);
                release.countDown();
                RecordedEvent late = await("dev.spindle.TimerLateness", e -> of(e, name));
                assertThat(late.getThread().getJavaName()).isEqualTo(name + "-watchdog");
            } finally {
                release.countDown();
                s.close();
            }
        }
    }
}
