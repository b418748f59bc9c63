/**
 * Spindle by example. Each class shows one feature and has a {@code main} that prints what it
 * demonstrates: {@link dev.spindle.examples.HelloJobs}, {@link dev.spindle.examples.FibersAndCancellation},
 * {@link dev.spindle.examples.Finalizers}, {@link dev.spindle.examples.Timeouts},
 * {@link dev.spindle.examples.Parallel}, {@link dev.spindle.examples.Schedulers},
 * {@link dev.spindle.examples.Failures}, {@link dev.spindle.examples.Interop},
 * {@link dev.spindle.examples.Simulated}, {@link dev.spindle.examples.Messaging},
 * {@link dev.spindle.examples.Coordination}, {@link dev.spindle.examples.DirectStyle};
 * {@link dev.spindle.examples.Showcase} runs them in sequence.
 */
package dev.spindle.examples;
