/**
 * JMH micro-benchmarks of single Spindle operations, each amortised over a loop of many operations per
 * invocation: a {@code flatMap} step, {@code start}+{@code join}, a {@code yieldNow} round trip and a
 * direct-style {@code await} (on {@code SchedulerState}: single-threaded or one worker per processor); and,
 * on {@code WorkerCountState} (single-threaded or a given number of workers), channel give/take,
 * {@code choose} of 2 and 8 alternatives, {@code IVar} fill+read, and marl's scheduler, wait-group and
 * event-baton benchmarks; channel give/take between two threads ({@code CrossThreadChannelBenchmark}); and
 * the shared points of many workers (docs/many-cores.md): words every thread writes
 * ({@code SharedWordBenchmark}, run with {@code -t 1}, {@code -t 2}, {@code -t 64}) and the runtime under
 * 64 workers ({@code ManyWorkersBenchmark}, run with {@code -p workers=1,2,64}).
 * These check their results and throw when the work was not done.
 * Run with {@code java -cp spindle-bench/target/spindle-bench.jar org.openjdk.jmh.Main -f 1 -wi 2 -i 3}
 * (name a class to run fewer).
 */
package dev.spindle.bench.micro;
