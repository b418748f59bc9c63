package dev.spindle.internal.run;

/** When a thread driving a worker should return. Whoever makes it true unparks the driver. */
@FunctionalInterface
public interface StopCondition {
    /** True once the driver should stop. Called from the driving thread; must be cheap and non-blocking. */
    boolean isStopped();
}
