package dev.spindle.test.net;

import java.time.Duration;
import java.util.Objects;

/**
 * What a {@link SimNetwork} does to traffic, drawn from its seed: every chunk of bytes and every connection
 * attempt takes {@code latency} plus up to {@code jitter} of virtual time (so connections overtake one
 * another, each keeping its own order); a connection attempt is dropped (fails with
 * {@link java.net.ConnectException}) with probability {@code dropConnect}; a chunk in flight resets its
 * connection (a {@link java.net.SocketException} on both ends) with probability {@code resetChunk}; a read
 * or a write moves fewer bytes than it could (at least one) with probability {@code split}, as TCP may cut a
 * stream anywhere, so code that assumes one read per message fails here as it would on a real network.
 *
 * @param latency the least time a chunk or connection attempt takes
 * @param jitter the most extra time, drawn uniformly
 * @param dropConnect probability in [0, 1] that a connection attempt is dropped
 * @param resetChunk probability in [0, 1] that a chunk resets its connection instead of arriving
 * @param split probability in [0, 1] that a read or write of more than one byte moves only some of them
 */
public record Faults(Duration latency, Duration jitter, double dropConnect, double resetChunk, double split) {
    /** One millisecond per hop, no jitter, no faults. */
    public static final Faults NONE = new Faults(Duration.ofMillis(1), Duration.ZERO, 0, 0, 0);

    /** Checks the arguments. */
    public Faults {
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(jitter, "jitter");
        if (latency.isNegative() || jitter.isNegative()) {
            throw new IllegalArgumentException("latency and jitter must not be negative");
        }
        if (!isProbability(dropConnect) || !isProbability(resetChunk) || !isProbability(split)) {
            throw new IllegalArgumentException("probabilities must be in [0, 1]: dropConnect " + dropConnect
                    + ", resetChunk " + resetChunk + ", split " + split);
        }
    }

    /**
     * {@return these faults with {@code latency} and {@code jitter}}
     *
     * @param latency the least time a chunk or connection attempt takes
     * @param jitter the most extra time, drawn uniformly
     */
    public Faults withLatency(Duration latency, Duration jitter) {
        return new Faults(latency, jitter, dropConnect, resetChunk, split);
    }

    /**
     * {@return these faults with connection attempts dropped with probability {@code p}}
     *
     * @param p the probability, in [0, 1]
     */
    public Faults withDropConnect(double p) {
        return new Faults(latency, jitter, p, resetChunk, split);
    }

    /**
     * {@return these faults with chunks resetting their connection with probability {@code p}}
     *
     * @param p the probability, in [0, 1]
     */
    public Faults withResetChunk(double p) {
        return new Faults(latency, jitter, dropConnect, p, split);
    }

    /**
     * {@return these faults with reads and writes moving only some of their bytes with probability {@code p}}
     *
     * @param p the probability, in [0, 1]
     */
    public Faults withSplit(double p) {
        return new Faults(latency, jitter, dropConnect, resetChunk, p);
    }

    private static boolean isProbability(double p) {
        return p >= 0 && p <= 1; // false for NaN
    }
}
