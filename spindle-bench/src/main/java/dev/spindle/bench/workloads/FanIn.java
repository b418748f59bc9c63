package dev.spindle.bench.workloads;

import dev.spindle.Channel;
import dev.spindle.Fiber;
import dev.spindle.Job;
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
 *
 * <p>Spindle: a {@code Channel}; a child fiber starts and joins the producers, the root fiber is the
 * consumer (in spindle-direct, every one of them a direct body). vt: a {@code SynchronousQueue}. cf: an
 * {@link AsyncChannel} driven by {@link CfLoop}s.
 */
public final class FanIn extends TimedWorkload {
    /** Number of producers at full size. */
    public static final int PRODUCERS = 1000;

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
    protected long spindle(Scheduler scheduler, int size) {
        Channel<Integer> channel = new Channel<>();
        Job<Long> producers = SpindleFork.sum(producers(size), p -> produce(channel, share(size, p)));
        return scheduler.run(producers.start().flatMap(all ->
                consume(channel, size, 0L).flatMap(taken ->
                all.join().map(done -> taken))));
    }

    private static Job<Long> produce(Channel<Integer> channel, int left) {
        if (left == 0) {
            return Job.result(0L);
        }
        return channel.give(left).flatMap(given -> produce(channel, left - 1));
    }

    private static Job<Long> consume(Channel<Integer> channel, int left, long taken) {
        if (left == 0) {
            return Job.result(taken);
        }
        return channel.take().flatMap(v -> consume(channel, left - 1, taken + 1));
    }

    @Override
    protected long spindleDirect(Scheduler scheduler, int size) {
        Channel<Integer> channel = new Channel<>();
        Job<Long> producers = Job.direct(() -> DirectFork.sum(producers(size), p -> Job.direct(() -> {
            for (int i = share(size, p); i > 0; i--) {
                channel.give(i).await();
            }
            return 0L;
        })));
        return scheduler.run(Job.direct(() -> {
            Fiber<Long> all = producers.start().await();
            long taken = 0;
            for (int i = 0; i < size; i++) {
                channel.take().await();
                taken++;
            }
            all.join().await();
            return taken;
        }));
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
