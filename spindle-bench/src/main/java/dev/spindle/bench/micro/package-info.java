/**
 * JMH micro-benchmarks of single Spindle operations (a {@code flatMap} step, {@code start}+{@code join},
 * a {@code yieldNow} round trip), each amortised over a loop of many operations inside one fiber.
 * Run with {@code java -cp spindle-bench/target/spindle-bench.jar org.openjdk.jmh.Main -f 1 -wi 2 -i 3}.
 */
package dev.spindle.bench.micro;
