package dev.spindle.test;

import dev.spindle.internal.diag.DumpText;
import dev.spindle.internal.run.Blocker;

/**
 * What the simulation knows about one fiber: a stable number (in start order), the user's name, who
 * started it, what it waits on, and the scheduling priority a PCT schedule gave it.
 *
 * <p>Written and read only by the thread driving the simulation.
 */
final class FiberInfo {
    /** 1, 2, 3... in start order: stable across runs of one schedule (identity hashes are not). */
    final int id;
    /** The fiber that was running when this one started, or null for fibers started from outside. */
    final FiberInfo starter;
    /** Name from {@code job.named(..)}, or null. */
    String name;
    /** Whether the fiber has finished. */
    boolean finished;
    /** What the fiber waits on since it last ran, or null (as text, when it is not another fiber). */
    String waitsOn;
    /** The blocker behind {@link #waitsOn}, described afresh for reports; null when not waiting. */
    Blocker blocker;
    /** The fiber it waits to join, or null. */
    FiberInfo joinTarget;
    /** Order in which fibers blocked: sorts timers that fall due together into the order they were set. */
    long blockSequence;
    /** Scheduling priority under a PCT schedule (higher runs first); unused otherwise. */
    long priority;

    FiberInfo(int id, FiberInfo starter) {
        this.id = id;
        this.starter = starter;
    }

    /** Whether the fiber waits on something since it last ran. */
    boolean isWaiting() {
        return waitsOn != null || blocker != null || joinTarget != null;
    }

    /** Forgets what the fiber waited on: it is running again. */
    void running() {
        waitsOn = null;
        blocker = null;
        joinTarget = null;
    }

    /** What it waits on, for reports. */
    String waitDescription() {
        return joinTarget != null ? "join of " + joinTarget.label() : waitsOn;
    }

    /** {@code fiber-3 "reader"}, or {@code fiber-3} when unnamed. */
    String label() {
        return DumpText.label(id, name);
    }

    @Override
    public String toString() {
        return label();
    }
}
