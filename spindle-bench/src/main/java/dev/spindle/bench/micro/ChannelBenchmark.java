package dev.spindle.bench.micro;

import dev.spindle.Channel;
import dev.spindle.Job;
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
 * Cost of one exchange over an unbuffered {@link Channel}: a giver fiber gives 0, 1, ..., n - 1 and a taker
 * fiber takes them, so each exchange is one {@code give} and one {@code take} that meet, including the
 * giver's or the taker's blocking and its resumption (whoever comes first waits).
 *
 * <p>{@code workers=single} is the exchange on one worker. {@code workers=2} is meant as the exchange across
 * workers (and needs two free cores), but the public API cannot place a fiber on a worker, and a resumed
 * fiber runs on the worker that woke it: the pair settles on one worker at once. With thread names recorded
 * per exchange, none of 5 x 200,000 exchanges on {@code Scheduler.create(2)} crossed workers. So today
 * {@code workers=2} measures the exchange on one worker while a second worker idles (its per-item look for
 * idle workers included), not a cross-worker hand-off: {@link CrossThreadChannelBenchmark} measures that.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class ChannelBenchmark extends WorkerCountState {
    /** {@link #OPS} exchanges between a giver and a taker; checks that every value arrived once. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long giveTake() {
        Channel<Long> ch = new Channel<>("giveTake");
        Job<Long> giver = repeat(OPS, i -> ch.give((long) i));
        Job<Long> taker = sum(OPS, i -> ch.take());
        return runAndCheck("sum taken + exchanges given", triangle(OPS) + OPS, alongside(giver, taker));
    }
}
