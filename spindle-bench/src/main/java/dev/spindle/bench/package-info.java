/**
 * The comparison runner: {@link dev.spindle.bench.Main} runs one workload on one implementation (Spindle in
 * combinators or direct style, virtual threads or {@code CompletableFuture}), warms up, times several runs
 * and prints one {@code RESULT} line with the medians (the contract in docs/benchmark-notebook.md, "Workloads").
 * {@code bench/compare.sh} runs every pair in its own JVM and tabulates the ratios.
 */
package dev.spindle.bench;
