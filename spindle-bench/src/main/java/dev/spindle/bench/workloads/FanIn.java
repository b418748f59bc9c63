package dev.spindle.bench.workloads;

import dev.spindle.Scheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.SynchronousQueue;

/**
 * Workload 7, fanin: {@value #PRODUCERS} producers give to one unbuffered channel and one consumer takes
 * every message; {@code size} is the total (10,000,000 by default: 10,000 per producer). Metric:
 * {@code per_msg} ns. Check: the number of messages taken.
 *
 * <p>With fewer messages than producers, there is one producer per message; otherwise producer {@code p}
 * gives {@link #share(int, int) share(size, p)} messages.
 */
public final class FanIn extends TimedWorkload {
    /** Number of producers at full size. */
    public static final int PRODUCERS = 1000;
    /** The Spindle implementation, compiled when core has {@code dev.spindle.Channel}. */
    static final String SPINDLE = "dev.spindle.bench.channel.SpindleFanIn";

    /** The workload at its default size. */
    public FanIn() {
        super("fanin", 10_000_000, Metric.perOpNanos("per_msg"));
    }

    @Override
    public long expectedCheck(long size) {
        return size;
    }

    /** The number of producers for {@code size} messages. */
    public static int producers(int size) {
        return Math.min(PRODUCERS, size);
    }

    /** The number of messages producer {@code p} gives when the total is {@code size}. */
    public static int share(int size, int p) {
        int n = producers(size);
        return size / n + (p < size % n ? 1 : 0);
    }

    @Override
    protected long spindle(Scheduler scheduler, int size) throws Exception {
        return OptionalSpindle.load(SpindleBody.class, SPINDLE, "dev.spindle.Channel").run(scheduler, size);
    }

    @Override
    protected long vt(int size) throws Exception {
        SynchronousQueue<Integer> channel = new SynchronousQueue<>();
        return VtFork.call(() -> {
            VtFork.Forked producers = VtFork.fork(producers(size), n -> VtFork.sum(n, p -> {
                for (int i = share(size, p); i > 0; i--) {
                    channel.put(i);
                }
                return 0;
            }));
            long taken = 0;
            for (int i = 0; i < size; i++) {
                channel.take();
                taken++;
            }
            producers.join();
            return taken;
        });
    }

    @Override
    protected long cf(int size) {
        AsyncChannel<Integer> channel = new AsyncChannel<>();
        int n = producers(size);
        CompletableFuture<Void>[] producers = CfFork.newArray(n);
        for (int p = 0; p < n; p++) {
            producers[p] = CfLoop.repeatWhile(new Counter(share(size, p), i ->
                    channel.give((int) i).thenApply(v -> true)));
        }
        long[] taken = new long[1];
        CompletableFuture<Void> consumer = CfLoop.repeatWhile(new Counter(size, i ->
                channel.take().thenApply(v -> {
                    taken[0]++;
                    return true;
                })));
        consumer.join();
        CompletableFuture.allOf(producers).join();
        return taken[0];
    }
}
