package dev.spindle.bench.micro;

import dev.spindle.Alt;
import dev.spindle.Channel;
import dev.spindle.Job;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one committed {@link Alt#choose} over {@link #alternatives} alternatives, of which exactly one
 * becomes ready. The choose alts are built once per trial; what is measured is running them: the commit
 * record, the instantiation of the alternatives tried before the ready one (each registers a waiter on its
 * channel, stale once the choose commits), and the commit.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class ChooseBenchmark extends WorkerCountState {
    /** Number of alternatives in the choose. */
    @Param({"2", "8"})
    public int alternatives;

    /** One channel per alternative (in {@link #takeAnyOrOne} the last one is replaced by the always). */
    private List<Channel<Long>> channels;
    /** A take from every channel. */
    private Alt<Long> takeAny;
    /** A take from every channel but the last, then an {@code Alt.always(1L)}. */
    private Alt<Long> takeAnyOrOne;

    /** Builds the channels and the two chooses. */
    @Setup(Level.Trial)
    public void buildChooses() {
        channels = new ArrayList<>();
        List<Alt<Long>> takes = new ArrayList<>();
        for (int i = 0; i < alternatives; i++) {
            Channel<Long> ch = new Channel<>("alternative " + i);
            channels.add(ch);
            takes.add(ch.take());
        }
        takeAny = Alt.choose(takes);
        takes.set(alternatives - 1, Alt.always(1L));
        takeAnyOrOne = Alt.choose(takes);
    }

    /**
     * {@link #OPS} chooses of a taker fiber over a take from each channel, while a giver fiber gives 0, 1, ...
     * on channel {@code i % alternatives}: one op is a committed choose plus the give it meets. The ready
     * alternative rotates, so a choose that finds its giver waiting instantiates the alternatives before it,
     * and one that has to wait instantiates all of them. Checks that every value arrived once.
     */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long chooseGiven() {
        Job<Long> giver = repeat(OPS, i -> channels.get(i % alternatives).give((long) i));
        Job<Long> taker = sum(OPS, i -> takeAny);
        return runAndCheck("sum chosen + exchanges given", triangle(OPS) + OPS, alongside(giver, taker));
    }

    /**
     * {@link #OPS} chooses in one fiber whose last alternative is {@code Alt.always}: one op instantiates
     * {@code alternatives - 1} takes on idle channels (each registers a waiter) and commits to the always.
     * Nothing blocks: this is the instantiation cost alone. Checks that every choose gave the always's value.
     */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long chooseAlways() {
        return runAndCheck("sum chosen", OPS, sum(OPS, i -> takeAnyOrOne));
    }
}
