package dev.spindle;

import dev.spindle.internal.run.Work;
import java.lang.reflect.Field;

/**
 * Peeks into the runtime for the fiber and cancellation tests: what a fiber still holds after it was
 * cancelled while blocked. Reuses the scheduler fixture ({@link SchedulerKind}, {@link Schedulers},
 * {@link TestJobs}) for everything else.
 */
final class FiberFixtures {
    private static final Field JOINERS;

    static {
        try {
            JOINERS = FiberCore.class.getDeclaredField("joiners");
            JOINERS.setAccessible(true);
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(
                    "FiberCore has no field 'joiners' (the wait list of its joiners): update FiberFixtures");
        }
    }

    private FiberFixtures() {
    }

    /** Number of continuations waiting for {@code f} to end (its joiners, callbacks included). */
    static int joinerCount(Fiber<?> f) {
        int n = 0;
        try {
            for (Work k = (Work) JOINERS.get(((FiberCore<?>) f)); k != null; k = k.next) {
                n++;
            }
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
        return n;
    }

    /** Number of timers pending on {@code s}. */
    static int pendingTimers(Scheduler s) {
        return s.engine.timers().size();
    }
}
