/**
 * The eight benchmark workloads of docs/benchmarks.md, one class each, every one implemented for
 * Spindle in combinators style ({@code spindle}) and in direct style ({@code spindle-direct}), JDK virtual
 * threads ({@code vt}) and {@code CompletableFuture} on the common pool ({@code cf}), plus the small
 * fork/join, loop and channel helpers the implementations share.
 */
package dev.spindle.bench.workloads;
