/**
 * A network that code under test takes as a parameter: {@link dev.spindle.test.net.Network#system()} is the
 * real one (loopback and other real addresses, through {@code dev.spindle.net}), and
 * {@link dev.spindle.test.net.SimNetwork} a simulated one inside a {@link dev.spindle.test.Simulation}:
 * named hosts, virtual-time latency, bounded buffers, and seeded faults (dropped connection attempts,
 * resets, partitions), all replayable from the simulation's schedule.
 */
package dev.spindle.test.net;
