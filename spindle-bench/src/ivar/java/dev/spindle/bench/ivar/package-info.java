/**
 * The {@code IVar} signal for the idle-memory workload. This source root is compiled only when
 * spindle-core has {@code dev.spindle.IVar} (the {@code spindle-ivar} profile); the workload loads it by
 * name and falls back to a gate fiber without it.
 */
package dev.spindle.bench.ivar;
