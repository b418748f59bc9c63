/**
 * The eight benchmark workloads of {@code BENCHMARKS.md}, one class each, every one implemented for
 * Spindle, JDK virtual threads ({@code vt}) and {@code CompletableFuture} on the common pool ({@code cf}),
 * plus the small fork/join, loop and channel helpers the implementations share.
 *
 * <p>The Spindle versions of the channel workloads (and of idle-memory on an {@code IVar}) need API that
 * spindle-core does not have yet; they live in optional source roots and are loaded by name
 * ({@link dev.spindle.bench.workloads.OptionalSpindle}), so without them the runner reports "not yet
 * implemented" instead of failing to build.
 */
package dev.spindle.bench.workloads;
