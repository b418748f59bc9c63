package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.management.JMX;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Metrics agree with a known workload: N fibers started and finished, M sleepers pending with a timer
 * each; the MBean shows the same values; the counts of a scheduler that was never used are zero.
 */
@Timeout(60)
class MetricsTest {
    private static final int N = 50;
    private static final int M = 7;

    private static Job<Void> workload() {
        Job<Void> acc = Job.unit();
        for (int i = 0; i < N; i++) {
            acc = acc.then(Job.of(() -> 1).start().flatMap(Fiber::join)).then(Job.unit());
        }
        for (int i = 0; i < M; i++) {
            acc = acc.then(Job.sleep(Duration.ofHours(1)).start()).then(Job.unit());
        }
        return acc;
    }

    @Test
    void metricsAgreeWithAKnownWorkload() throws Exception {
        Scheduler s = Scheduler.builder().workers(2).name("metrics").starvationThreshold(Duration.ZERO).build();
        try {
            SchedulerMetrics fresh = s.metrics();
            assertThat(fresh).isEqualTo(new SchedulerMetrics("metrics", 2, 0, 0, 0, 0, 0, fresh.parks(),
                    fresh.wakeups(), 0, 0));
            s.run(workload());
            s.run(Job.failure(new IllegalStateException("unobserved")).forget());
            SchedulerMetrics m = awaitSettled(s);
            // started: the workload's root, N children, M sleepers, the failing fiber and its root
            assertThat(m.fibersStarted()).isEqualTo(1 + N + M + 2);
            assertThat(m.fibersFinished()).isEqualTo(1 + N + 2);
            assertThat(m.liveFibers()).isEqualTo(M);
            assertThat(m.pendingTimers()).isEqualTo(M);
            assertThat(m.runnableItems()).isZero();
            assertThat(m.uncaughtFailures()).isEqualTo(1);
            assertThat(m.workers()).isEqualTo(2);
            assertThat(m.wakeups()).isLessThanOrEqualTo(m.parks());

            MBeans.await("metrics", true);
            SchedulerMXBean bean = JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
                    new ObjectName("dev.spindle:type=Scheduler,name=metrics"), SchedulerMXBean.class);
            assertThat(List.of(bean.getFibersStarted(), bean.getFibersFinished(), bean.getLiveFibers(),
                    bean.getPendingTimers(), bean.getUncaughtFailures(), (long) bean.getWorkers()))
                    .containsExactly(m.fibersStarted(), m.fibersFinished(), m.liveFibers(), m.pendingTimers(),
                            m.uncaughtFailures(), 2L);
            assertThat(s.dump().fibers()).hasSize(M + 1); // the sleepers under their finished parent
        } finally {
            s.shutdownNow();
        }
    }

    /** Metrics once the sleepers have armed their timers and the failure has been reported. */
    private static SchedulerMetrics awaitSettled(Scheduler s) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<SchedulerMetrics> seen = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            SchedulerMetrics m = s.metrics();
            if (m.pendingTimers() == M && m.uncaughtFailures() == 1 && m.runnableItems() == 0) {
                return m;
            }
            seen.add(m);
            Thread.sleep(5);
        }
        throw new AssertionError("never settled; last: " + seen.get(seen.size() - 1));
    }
}
