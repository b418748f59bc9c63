package dev.spindle.bench.channel;

import dev.spindle.Channel;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.bench.workloads.FanIn;
import dev.spindle.bench.workloads.SpindleBody;
import dev.spindle.bench.workloads.SpindleFork;

/**
 * Spindle fanin ({@code dev.spindle.bench.workloads.FanIn}): a child fiber starts and joins the producers;
 * the root fiber is the consumer.
 */
public final class SpindleFanIn implements SpindleBody {
    /** Instantiated by name. */
    public SpindleFanIn() {
    }

    @Override
    public long run(Scheduler scheduler, int size) {
        Channel<Integer> channel = new Channel<>();
        Job<Long> producers = SpindleFork.sum(FanIn.producers(size), p -> produce(channel, FanIn.share(size, p)));
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
}
