/**
 * The soak test, {@code bin/soak [minutes]}: {@link dev.spindle.bench.soak.SoakMain} runs a mixed workload
 * (random spawn trees with cancellation, timeouts and races over channels, mailboxes, mutexes, wait groups,
 * sleeps and direct bodies) and checks at every rest point that nothing was lost, no fiber or timer is
 * left, and the heap stays flat.
 */
package dev.spindle.bench.soak;
