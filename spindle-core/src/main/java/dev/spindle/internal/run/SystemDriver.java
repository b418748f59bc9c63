package dev.spindle.internal.run;

import java.time.Instant;

/**
 * The driver of every real engine: {@code System.nanoTime}, anchored once to the wall clock; callers wait
 * on real threads (parking, or driving a single-threaded engine's worker); the runtime orders work itself;
 * threads may be started; a timer thread wakes the workers.
 */
final class SystemDriver implements Driver {
    static final SystemDriver INSTANCE = new SystemDriver();

    private static final Instant ANCHOR_INSTANT = Instant.now();
    private static final long ANCHOR_NANOS = System.nanoTime();

    private SystemDriver() {
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Instant instant(long nanos) {
        return ANCHOR_INSTANT.plusNanos(nanos - ANCHOR_NANOS);
    }

    @Override
    public void await(Engine engine, StopCondition stop) {
        engine.awaitOnThreads(stop);
    }

    @Override
    public void awaitQuiescent(Engine engine, StopCondition quiescent) {
        engine.awaitQuiescentOnThreads(quiescent);
    }

    @Override
    public boolean runtimeChoosesOrder() {
        return true;
    }

    @Override
    public boolean allowsOtherThreads() {
        return true;
    }

    @Override
    public boolean hasTimerThread() {
        return true;
    }
}
