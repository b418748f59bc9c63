package dev.spindle.bench.channel;

import dev.spindle.Channel;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.bench.workloads.SpindleBody;
import dev.spindle.bench.workloads.SpindleFork;
import dev.spindle.bench.workloads.ThreadRing;

/**
 * Spindle threadring ({@code dev.spindle.bench.workloads.ThreadRing}): 503 fibers looping on
 * {@code take}, and one more that gives the token to the first; the root joins them all and sums their
 * results (the holder's id; 0 from everyone else).
 */
public final class SpindleThreadRing implements SpindleBody {
    /** Instantiated by name. */
    public SpindleThreadRing() {
    }

    @Override
    public long run(Scheduler scheduler, int size) {
        @SuppressWarnings("unchecked")
        Channel<Integer>[] channels = (Channel<Integer>[]) new Channel<?>[ThreadRing.RING];
        for (int i = 0; i < channels.length; i++) {
            channels[i] = new Channel<>();
        }
        return scheduler.run(SpindleFork.sum(ThreadRing.RING + 1, i -> i == ThreadRing.RING
                ? channels[0].give(size).map(given -> 0L)
                : member(channels[i], channels[(i + 1) % ThreadRing.RING], i + 1)));
    }

    private static Job<Long> member(Channel<Integer> in, Channel<Integer> out, int id) {
        return in.take().flatMap(value -> {
            int give = ThreadRing.onTake(value, id);
            Job<Void> pass = give == ThreadRing.NOTHING ? Job.unit() : out.give(give);
            if (value > 0) {
                return pass.flatMap(given -> member(in, out, id));
            }
            return pass.map(given -> value == 0 ? (long) id : 0L);
        });
    }
}
