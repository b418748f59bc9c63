package dev.spindle.bench.workloads;

import dev.spindle.Channel;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.SynchronousQueue;

/**
 * Workload 3, threadring: {@value #RING} fibers in a ring, one unbuffered channel each; a token of value
 * {@code size} (10,000,000 hops by default) starts at fiber 1 and is passed on, decremented at each hop,
 * until it is 0. Metric: {@code per_hop} ns. Check: the 1-based id of the fiber holding the token at 0
 * ({@code size % 503 + 1}: 361 by default).
 *
 * <p>Afterwards a stop marker goes round so that every fiber exits: the holder gives {@code -id}; a fiber
 * that takes a marker passes it on unless its successor is the holder, and exits. {@link #onTake} is that
 * rule, shared by every runtime.
 *
 * <p>Every runtime runs {@value #RING} ring fibers looping on {@code take} and one more that gives the token
 * to the first, and sums what they end with (the holder's id; 0 from everyone else). Spindle: a
 * {@code Channel} each, {@link SpindleFork#sum} over the fibers; spindle-direct: the same channels, direct
 * bodies looping on {@code await}, {@link DirectFork#sum}. vt: {@code SynchronousQueue}s,
 * {@link VtFork#sum}. cf: {@link AsyncChannel}s and {@link CfLoop}s; the holder is recorded, not summed.
 */
public final class ThreadRing extends TimedWorkload {
    /** Number of fibers in the ring. */
    public static final int RING = 503;
    /** {@link #onTake} result: give nothing. */
    public static final int NOTHING = Integer.MIN_VALUE;

    /** The workload at its default size. */
    public ThreadRing() {
        super("threadring", 10_000_000, Metric.perOpNanos("per_hop"));
    }

    @Override
    public long expectedCheck(long size) {
        return size % RING + 1;
    }

    /**
     * What ring fiber {@code id} (1-based) gives its successor after taking {@code value}, or {@link #NOTHING}.
     * The fiber goes on taking only when {@code value > 0}; it holds the token when {@code value == 0}.
     */
    public static int onTake(int value, int id) {
        int nextId = id % RING + 1;
        if (value > 0) {
            return value - 1;
        } else if (value == 0) {
            return -id;
        } else {
            return nextId == -value ? NOTHING : value;
        }
    }

    @Override
    protected long spindle(Scheduler scheduler, int size) {
        Channel<Integer>[] channels = spindleChannels();
        return scheduler.run(SpindleFork.sum(RING + 1, i -> i == RING
                ? channels[0].give(size).map(given -> 0L)
                : member(channels[i], channels[(i + 1) % RING], i + 1)));
    }

    private static Job<Long> member(Channel<Integer> in, Channel<Integer> out, int id) {
        return in.take().flatMap(value -> {
            int give = onTake(value, id);
            Job<Void> pass = give == NOTHING ? Job.unit() : out.give(give);
            if (value > 0) {
                return pass.flatMap(given -> member(in, out, id));
            }
            return pass.map(given -> value == 0 ? (long) id : 0L);
        });
    }

    @Override
    protected long spindleDirect(Scheduler scheduler, int size) {
        Channel<Integer>[] channels = spindleChannels();
        Job<Long> starter = Job.direct(() -> {
            channels[0].give(size).await();
            return 0L;
        });
        return scheduler.run(Job.direct(() -> DirectFork.sum(RING + 1, i -> i == RING
                ? starter
                : Job.direct(() -> directMember(channels[i], channels[(i + 1) % RING], i + 1)))));
    }

    /** Inside a direct body. */
    private static long directMember(Channel<Integer> in, Channel<Integer> out, int id) {
        while (true) {
            int value = in.take().await();
            int give = onTake(value, id);
            if (give != NOTHING) {
                out.give(give).await();
            }
            if (value <= 0) {
                return value == 0 ? id : 0;
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Channel<Integer>[] spindleChannels() {
        Channel<Integer>[] channels = (Channel<Integer>[]) new Channel<?>[RING];
        for (int i = 0; i < RING; i++) {
            channels[i] = new Channel<>();
        }
        return channels;
    }

    @Override
    protected long vt(int size) throws Exception {
        @SuppressWarnings("unchecked")
        SynchronousQueue<Integer>[] channels = (SynchronousQueue<Integer>[]) new SynchronousQueue<?>[RING];
        for (int i = 0; i < RING; i++) {
            channels[i] = new SynchronousQueue<>();
        }
        return VtFork.call(() -> {
            long holder = VtFork.sum(RING + 1, i -> {
                if (i == RING) {
                    channels[0].put(size); // the starter
                    return 0;
                }
                SynchronousQueue<Integer> in = channels[i];
                SynchronousQueue<Integer> out = channels[(i + 1) % RING];
                while (true) {
                    int value = in.take();
                    int give = onTake(value, i + 1);
                    if (give != NOTHING) {
                        out.put(give);
                    }
                    if (value <= 0) {
                        return value == 0 ? i + 1 : 0;
                    }
                }
            });
            return holder;
        });
    }

    @Override
    protected long cf(int size) {
        AsyncChannel<Integer>[] channels = newChannels();
        long[] holder = new long[1];
        CompletableFuture<Void>[] fibers = CfFork.newArray(RING);
        for (int i = 0; i < RING; i++) {
            int id = i + 1;
            AsyncChannel<Integer> in = channels[i];
            AsyncChannel<Integer> out = channels[id % RING];
            fibers[i] = CfLoop.repeatWhile(() -> in.take().thenCompose(value -> {
                if (value == 0) {
                    holder[0] = id;
                }
                int give = onTake(value, id);
                CompletableFuture<Void> passed = give == NOTHING ? CompletableFuture.completedFuture(null)
                        : out.give(give);
                return passed.thenApply(v -> value > 0);
            }));
        }
        channels[0].give(size);
        CompletableFuture.allOf(fibers).join();
        return holder[0];
    }

    @SuppressWarnings("unchecked")
    private static AsyncChannel<Integer>[] newChannels() {
        AsyncChannel<Integer>[] channels = (AsyncChannel<Integer>[]) new AsyncChannel<?>[RING];
        for (int i = 0; i < RING; i++) {
            channels[i] = new AsyncChannel<>();
        }
        return channels;
    }
}
