package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.internal.diag.Starvation;
import dev.spindle.internal.diag.Watchdog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The starvation watchdog, driven with a clock of the test's own (no timing): a stackless job that calls
 * {@code Thread.sleep(500)} is reported exactly once per episode, naming the fiber and the worker, with
 * {@code Thread.sleep} and the user's method in the stack; a worker that moves on starts a new episode, and
 * an idle worker is never reported.
 */
@Timeout(60)
class WatchdogTest {
    private static final long MS = 1_000_000;
    private final CountDownLatch sleeping = new CountDownLatch(1);
    private volatile boolean released;

    /** The user's blocking method: sleeps in 500 ms steps until the test releases it. */
    private void userCodeThatSleeps() {
        sleeping.countDown();
        try {
            while (!released) {
                Thread.sleep(500);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aSleepingJobIsReportedOncePerEpisodeWithItsStack() throws Exception {
        Scheduler s = Scheduler.builder().workers(2).name("dog").starvationThreshold(Duration.ZERO).build();
        List<Starvation> reports = new ArrayList<>();
        Watchdog dog = new Watchdog(s.engine, 100 * MS, reports::add);
        try {
            dog.sample(0); // both workers idle: the first look only remembers
            var done = s.submit(Job.run(this::userCodeThatSleeps).named("sleepy"));
            assertThat(sleeping.await(30, TimeUnit.SECONDS)).isTrue();
            Thread worker = sleepingWorkerThread(s);
            while (worker.getState() != Thread.State.TIMED_WAITING) {
                Thread.onSpinWait(); // inside Thread.sleep
            }
            dog.sample(10 * MS);   // the first look at this episode
            dog.sample(60 * MS);   // 50 ms in: under the threshold
            assertThat(reports).isEmpty();
            dog.sample(110 * MS);  // 100 ms in: reported
            dog.sample(160 * MS);  // the same episode: not again
            dog.sample(1_000 * MS);
            assertThat(reports).hasSize(1);
            Starvation r = reports.get(0);
            assertThat(r.scheduler()).isEqualTo("dog");
            assertThat(r.worker()).isEqualTo(worker.getName());
            assertThat(r.fiberName()).isEqualTo("sleepy");
            assertThat(r.fiberLabel()).isEqualTo("fiber-" + r.fiberId() + " \"sleepy\"");
            assertThat(r.stuckFor()).isEqualTo(Duration.ofMillis(100));
            assertThat(r.stack()).anySatisfy(f -> assertThat(f.getClassName() + "." + f.getMethodName())
                    .isEqualTo("java.lang.Thread.sleep"));
            assertThat(r.stack()).anySatisfy(f -> assertThat(f.getMethodName()).isEqualTo("userCodeThatSleeps"));
            assertThat(r.message()).contains("worker " + worker.getName() + " has been running fiber-"
                    + r.fiberId() + " \"sleepy\" for 100 ms").contains("java.lang.Thread.sleep")
                    .contains("WatchdogTest.userCodeThatSleeps");

            released = true;
            done.get(30, TimeUnit.SECONDS);
            // The future completes inside an item (the fiber's completion callback), which may still be running,
            // or its thread descheduled, when this thread wakes: the samples below must find every item ended.
            for (int i = 0; i < s.workerCount(); i++) {
                while ((s.engine.worker(i).progress() & 1) != 0) {
                    Thread.onSpinWait();
                }
            }
            dog.sample(2_000 * MS); // it moved on: a new episode may be reported later, none is now
            dog.sample(3_000 * MS);
            dog.sample(4_000 * MS);
            assertThat(reports).hasSize(1);
        } finally {
            released = true;
            s.close();
        }
    }

    @Test
    void aWorkerParkedInsideANestedRunIsNotStarving() throws Exception {
        Scheduler s = Scheduler.builder().workers(1).name("nested").starvationThreshold(Duration.ZERO).build();
        List<Starvation> reports = new ArrayList<>();
        Watchdog dog = new Watchdog(s.engine, 100 * MS, reports::add);
        IVar<String> gate = new IVar<>("gate");
        try {
            dog.sample(0);
            var outer = s.submit(Job.of(() -> s.run(gate.read()))); // drives the worker inside its item
            while (!s.engine.worker(0).isParked() || (s.engine.worker(0).progress() & 1) == 0) {
                Thread.onSpinWait();
            }
            dog.sample(10 * MS);
            dog.sample(500 * MS);
            dog.sample(1_000 * MS);
            assertThat(reports).isEmpty();
            s.submit(gate.fill("open")).get(30, TimeUnit.SECONDS);
            assertThat(outer.get(30, TimeUnit.SECONDS)).isEqualTo("open");
        } finally {
            s.close();
        }
    }

    /** The worker thread that runs userCodeThatSleeps. */
    private static Thread sleepingWorkerThread(Scheduler s) {
        while (true) {
            for (int i = 0; i < s.engine.workerCount(); i++) {
                Thread t = s.engine.worker(i).driver();
                if (t != null && t.getState() != Thread.State.RUNNABLE) {
                    for (StackTraceElement f : t.getStackTrace()) {
                        if (f.getMethodName().equals("userCodeThatSleeps")) {
                            return t;
                        }
                    }
                }
            }
            Thread.onSpinWait();
        }
    }
}
