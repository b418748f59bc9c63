/**
 * Spindle versions of the channel workloads (pingpong, threadring, fanin), written against
 * {@code dev.spindle.Channel}. This source root is compiled only when spindle-core has {@code Channel}
 * (the {@code spindle-channel} profile); the workload classes load these by name.
 */
package dev.spindle.bench.channel;
