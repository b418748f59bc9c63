/**
 * Spindle's public API: {@link dev.spindle.Job} (lazy computations), {@link dev.spindle.Fiber} (running
 * ones), {@link dev.spindle.Scheduler} (where they run) and {@link dev.spindle.Outcome}.
 */
package dev.spindle;
