package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.internal.run.Work;
import java.lang.reflect.Field;

/**
 * Peeks into the runtime for the fiber and cancellation tests: what a fiber still holds after it was
 * cancelled while blocked, whether its workers are alive. The scheduler fixture
 * ({@link dev.spindle.test.fixture.SchedulerKind}) and {@link TestJobs} do the rest.
 */
final class FiberFixtures {
    private static final Field JOINERS;

    static {
        try {
            JOINERS = FiberImpl.class.getDeclaredField("joiners");
            JOINERS.setAccessible(true);
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(
                    "FiberImpl has no field 'joiners' (the wait list of its joiners): update FiberFixtures");
        }
    }

    private FiberFixtures() {
    }

    /** Number of continuations waiting for {@code f} to end (its joiners, callbacks included). */
    static int joinerCount(Fiber<?> f) {
        int n = 0;
        try {
            for (Work k = (Work) JOINERS.get(((FiberImpl<?>) f)); k != null && !FiberImpl.isUncaughtMarker(k);
                    k = k.queueLink()) {
                n++;
            }
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
        return n;
    }

    /** Asserts that every worker thread of {@code s} is still alive (user code killed none of them). */
    static void assertWorkersAlive(Scheduler s) {
        int expected = s.engine.isSingleThreaded() ? 0 : s.workerCount();
        long alive = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(s.engine + "-worker-") && t.isAlive())
                .count();
        assertThat(alive).as("live worker threads of %s", s).isEqualTo(expected);
    }

    /** Number of timers pending on {@code s}. */
    static int pendingTimers(Scheduler s) {
        return s.engine.timers().size();
    }
}
