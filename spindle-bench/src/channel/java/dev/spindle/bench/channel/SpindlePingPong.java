package dev.spindle.bench.channel;

import dev.spindle.Channel;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.bench.workloads.SpindleBody;

/**
 * Spindle pingpong ({@code dev.spindle.bench.workloads.PingPong}): the root fiber is A, a child fiber is B.
 */
public final class SpindlePingPong implements SpindleBody {
    /** Instantiated by name. */
    public SpindlePingPong() {
    }

    @Override
    public long run(Scheduler scheduler, int size) {
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
}
