package dev.spindle.internal.run;

/** What an engine tells its scheduler's diagnostics: failures nobody observes, and its end. */
public interface EngineHooks {
    /** A failure of {@code fiber} (null: of no known fiber) is about to reach the uncaught handler. */
    void uncaught(FiberBase<?> fiber, Throwable e);

    /** The engine has just terminated (once): stop watching it. */
    void terminated();
}
