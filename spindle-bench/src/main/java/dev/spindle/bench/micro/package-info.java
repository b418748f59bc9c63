/**
 * JMH micro-benchmarks of single Spindle operations, each amortised over a loop of many operations per
 * invocation: a {@code flatMap} step, {@code start}+{@code join}, a {@code yieldNow} round trip and a
 * direct-style {@code await} (on {@code SchedulerState}: single-threaded or one worker per processor); and,
 * on {@code WorkerCountState} (single-threaded or a given number of workers), channel give/take,
 * {@code choose} of 2 and 8 alternatives, {@code IVar} fill+read, and marl's scheduler, wait-group and
 * event-baton benchmarks; and channel give/take between two threads ({@code CrossThreadChannelBenchmark}).
 * These check their results and throw when the work was not done.
 * Run with {@code java -cp spindle-bench/target/spindle-bench.jar org.openjdk.jmh.Main -f 1 -wi 2 -i 3}
 * (name a class to run fewer).
 */
package dev.spindle.bench.micro;
