package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.internal.run.Work;
import dev.spindle.test.fixture.SchedulerKind;
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

    /**
     * Waits, driving {@code s}, until every child of {@code f} has retired and {@code f} has let go of its
     * child list. A child retires after its joiners resume, so a join of the parent can return while its
     * last child is still giving its unit back on another worker; and the list goes just after the count
     * reaches zero. A fiber that kept its list fails here after the fixture's patience.
     */
    static void awaitChildrenLetGo(SchedulerKind kind, Scheduler s, Fiber<?> f) {
        FiberImpl<?> p = (FiberImpl<?>) f;
        kind.awaitDriving(s, () -> p.liveChildren() == 0 && p.linkedChildren() == 0,
                "every child of " + f + " to retire and its child list to be let go");
    }

    /** Number of timers pending on {@code s}. */
    static int pendingTimers(Scheduler s) {
        return s.engine.timers().size();
    }
}
