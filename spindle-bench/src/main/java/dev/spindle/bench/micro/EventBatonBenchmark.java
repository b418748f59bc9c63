package dev.spindle.bench.micro;

import dev.spindle.Job;
import dev.spindle.sync.Event;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of passing a baton between two fibers through two {@link Event.Mode#AUTO} events: marl's
 * {@code Schedule/EventBaton} ({@code src/event_bench.cpp}). Fiber A waits on {@code toA} and signals
 * {@code toB}; fiber B waits on {@code toB} and signals {@code toA}. One op is one round trip, A to B and
 * back: two hand-offs, each a {@code signal()} that releases a waiting fiber and that fiber's resumption (one
 * iteration of marl's loop).
 *
 * <p>marl pins both tasks to one thread ({@code Task::Flags::SameThread}) and publishes 216 ns per round trip
 * with no worker threads (262,144 round trips in 56.7 ms on a Threadripper 3990X, Ubuntu; 410 ns on a 2018
 * MacBook Pro: {@code benchmarks/results/*.json} on marl's gh-pages branch). Spindle's fibers land on one
 * worker too: a fiber released by {@code signal()} runs on the signalling worker, so {@code workers=2} is the
 * same-worker hand-off with a second worker idle, not a cross-worker one.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class EventBatonBenchmark extends WorkerCountState {
    /**
     * {@link #OPS} round trips. Checks that the baton alternated strictly (each side finds the hand-over count
     * of its parity) and went round {@link #OPS} times.
     */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long baton() {
        Event toA = new Event(Event.Mode.AUTO, true, "toA"); // A holds the baton first
        Event toB = new Event(Event.Mode.AUTO, false, "toB");
        Baton baton = new Baton();
        Job<Void> aTurn = toA.await().then(Job.run(() -> baton.pass(0, toB)));
        Job<Void> bTurn = toB.await().then(Job.run(() -> baton.pass(1, toA)));
        run(alongside(repeat(OPS, i -> bTurn), repeat(OPS, i -> aTurn)));
        return check("hand-overs", 2L * OPS, baton.passes);
    }

    /** What the baton carries: the number of hand-overs so far. */
    private static final class Baton {
        /** Hand-overs so far. Written only by the fiber holding the baton (ordered by the events' locks). */
        long passes;

        /**
         * Checks that it is the turn of the side with {@code parity} (0 for A, 1 for B), counts the hand-over
         * and signals {@code next}.
         */
        void pass(int parity, Event next) {
            if (passes % 2 != parity) {
                throw new IllegalStateException("side " + parity + " ran out of turn after " + passes + " passes");
            }
            passes++;
            next.signal();
        }
    }
}
