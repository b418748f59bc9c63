package dev.spindle.bench.micro;

import dev.spindle.Channel;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one exchange over an unbuffered {@link Channel} between two threads: the giver fiber runs on one
 * single-worker scheduler, the taker fiber on another. A woken fiber runs only on its own scheduler's
 * worker, so every exchange hands the waiting side over to the other thread (through that scheduler's
 * global queue, waking its worker when it has parked). This is the cross-worker hand-off that
 * {@link ChannelBenchmark}'s {@code workers=2} cannot produce (there the pair settles on one worker). Needs
 * two free cores to mean anything.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class CrossThreadChannelBenchmark {
    private Scheduler giverSide;
    private Scheduler takerSide;

    /** Opens the two schedulers, one worker thread each. */
    @Setup(Level.Trial)
    public void open() {
        giverSide = Scheduler.builder().name("giver-side").workers(1).build();
        takerSide = Scheduler.builder().name("taker-side").workers(1).build();
    }

    /** Closes both (each waits for its fibers). */
    @TearDown(Level.Trial)
    public void close() {
        giverSide.close();
        takerSide.close();
    }

    /** {@link WorkerCountState#OPS} exchanges; checks that every value arrived once and every give ended. */
    @Benchmark
    @OperationsPerInvocation(WorkerCountState.OPS)
    public long giveTakeAcrossThreads() {
        int n = WorkerCountState.OPS;
        Channel<Long> ch = new Channel<>("across");
        CompletableFuture<Long> taken = takerSide.submit(WorkerCountState.sum(n, i -> ch.take()));
        long given = giverSide.run(WorkerCountState.repeat(n, i -> ch.give((long) i)));
        WorkerCountState.check("exchanges given", n, given);
        return WorkerCountState.check("sum taken", WorkerCountState.triangle(n), taken.join());
    }
}
