package dev.spindle.bench.workloads;

import dev.spindle.Channel;
import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.SynchronousQueue;

/**
 * Workload 2, pingpong: two fibers A and B, two unbuffered channels; for {@code i} in {@code [0, size)} A
 * gives {@code i} on the first, B takes it and gives it back on the second, A takes it. Metric:
 * {@code per_rt} ns per round trip. Check: the sum of the values A received, {@code size * (size - 1) / 2}.
 *
 * <p>Spindle: {@code Channel}s; the root fiber is A, a child fiber is B (in spindle-direct both are direct
 * bodies looping on {@code await}). vt: {@code SynchronousQueue}s. cf: {@link AsyncChannel}s driven by
 * {@link CfLoop}s.
 */
public final class PingPong extends TimedWorkload {
    /** The workload at its default size. */
    public PingPong() {
        super("pingpong", 1_000_000, Metric.perOpNanos("per_rt"));
    }

    @Override
    public long expectedCheck(long size) {
        return size * (size - 1) / 2;
    }

    @Override
    protected long spindle(Scheduler scheduler, int size) {
        Channel<Long> ping = new Channel<>();
        Channel<Long> pong = new Channel<>();
        return scheduler.run(echo(ping, pong, size).start().flatMap(b ->
                serve(ping, pong, 0, size, 0L).flatMap(sum ->
                b.join().map(done -> sum))));
    }

    /** A: gives i, takes the echo, adds it up. */
    private static Job<Long> serve(Channel<Long> ping, Channel<Long> pong, long i, long n, long sum) {
        if (i == n) {
            return Job.result(sum);
        }
        return ping.give(i).then(pong.take()).flatMap(x -> serve(ping, pong, i + 1, n, sum + x));
    }

    /** B: takes a value and gives it back, {@code left} times. */
    private static Job<Long> echo(Channel<Long> ping, Channel<Long> pong, long left) {
        if (left == 0) {
            return Job.result(0L);
        }
        return ping.take().flatMap(v -> pong.give(v).flatMap(given -> echo(ping, pong, left - 1)));
    }

    @Override
    protected long spindleDirect(Scheduler scheduler, int size) {
        Channel<Long> ping = new Channel<>();
        Channel<Long> pong = new Channel<>();
        return scheduler.run(Job.direct(() -> {
            Fiber<Long> b = Job.direct(() -> {
                for (int i = 0; i < size; i++) {
                    pong.give(ping.take().await()).await();
                }
                return 0L;
            }).start().await();
            long sum = 0;
            for (long i = 0; i < size; i++) {
                ping.give(i).await();
                sum += pong.take().await();
            }
            b.join().await();
            return sum;
        }));
    }

    @Override
    protected long vt(int size) throws Exception {
        SynchronousQueue<Long> ping = new SynchronousQueue<>();
        SynchronousQueue<Long> pong = new SynchronousQueue<>();
        return VtFork.call(() -> {
            VtFork.Forked b = VtFork.fork(size, n -> {
                for (int i = 0; i < n; i++) {
                    pong.put(ping.take());
                }
                return 0;
            });
            long sum = 0;
            for (long i = 0; i < size; i++) {
                ping.put(i);
                sum += pong.take();
            }
            b.join();
            return sum;
        });
    }

    @Override
    protected long cf(int size) {
        AsyncChannel<Long> ping = new AsyncChannel<>();
        AsyncChannel<Long> pong = new AsyncChannel<>();
        long[] sum = new long[1];
        CompletableFuture<Void> a = CfLoop.repeatWhile(new Counter(size, i ->
                ping.give(i).thenCompose(v -> pong.take()).thenApply(x -> {
                    sum[0] += x;
                    return true;
                })));
        CompletableFuture<Void> b = CfLoop.repeatWhile(new Counter(size, i ->
                ping.take().thenCompose(pong::give).thenApply(v -> true)));
        CompletableFuture.allOf(a, b).join();
        return sum[0];
    }
}
