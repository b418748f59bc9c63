package dev.spindle.bench.soak;

import dev.spindle.Scheduler;
import java.lang.reflect.Field;
import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.Method;

/**
 * Reads a scheduler's engine counters (live fibers, pending timers, quiescence), the ones the core tests'
 * leak checks use. The engine is internal and exported only to Spindle's simulator, so this reaches it
 * reflectively: that works on the class path, where the soak runs (from the shaded jar), and fails with a
 * clear message on the module path.
 */
final class EngineProbe {
    private final Object engine;
    private final Method liveFibers;
    private final Method timers;
    private final Method timersSize;
    private final Method isQuiescent;

    private EngineProbe(Object engine) throws ReflectiveOperationException {
        this.engine = engine;
        Class<?> type = engine.getClass();
        this.liveFibers = type.getMethod("liveFibers");
        this.timers = type.getMethod("timers");
        this.timersSize = timers.getReturnType().getMethod("size");
        this.isQuiescent = type.getMethod("isQuiescent");
    }

    /** A probe of {@code scheduler}'s engine. */
    static EngineProbe of(Scheduler scheduler) {
        try {
            Field field = Scheduler.class.getDeclaredField("engine");
            field.setAccessible(true);
            return new EngineProbe(field.get(scheduler));
        } catch (ReflectiveOperationException | InaccessibleObjectException e) {
            throw new IllegalStateException("cannot read the scheduler's engine (run the soak from the class path,"
                    + " as bin/soak does; the runtime's fields may have been renamed): " + e, e);
        }
    }

    /** Fibers started and not yet finished. */
    long liveFibers() {
        return (Long) call(liveFibers, engine);
    }

    /** Timers armed and not yet fired or removed. */
    int pendingTimers() {
        return (Integer) call(timersSize, call(timers, engine));
    }

    /** Whether nothing is queued, no timer pending and no fiber live (reliable only when no fiber runs). */
    boolean isQuiescent() {
        return (Boolean) call(isQuiescent, engine);
    }

    private static Object call(Method m, Object target) {
        try {
            return m.invoke(target);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot call Engine." + m.getName() + ": " + e, e);
        }
    }
}
