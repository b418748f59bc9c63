/**
 * The runtime: work items, workers, the engine, timers. Not exported (except to the simulator).
 *
 * <p>Memory-mode naming, where accessors state their ordering (JCTools): {@code lp/sp} plain,
 * {@code lv/sv} volatile, {@code la/so} acquire/release ("ordered"), {@code cas/xchg/xadd} atomic
 * read-modify-write. Fields documented as "owner: plain rw" are touched by one thread only.
 */
package dev.spindle.internal.run;
