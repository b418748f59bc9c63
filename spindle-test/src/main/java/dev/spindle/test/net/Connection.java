package dev.spindle.test.net;

import dev.spindle.Alt;
import dev.spindle.Job;
import java.nio.ByteBuffer;

/**
 * A byte stream between two hosts of a {@link Network}, with the semantics of
 * {@link dev.spindle.net.TcpStream}: {@link #read} gives the count read or -1 at end of stream and consumes
 * nothing when it loses a choose; {@link #write} waits until it can hand over at least one byte; a reset is
 * a {@link java.net.SocketException}; after {@link #close} operations fail with
 * {@link java.nio.channels.ClosedChannelException}.
 */
public interface Connection {
    /**
     * Reads into {@code dst} once bytes are available.
     *
     * @param dst the buffer to read into
     * @return an alternative that gives the count read, or -1 at end of stream
     */
    Alt<Integer> read(ByteBuffer dst);

    /**
     * Writes from {@code src} once at least one byte can be written.
     *
     * @param src the buffer to write from
     * @return an alternative that gives the count written
     */
    Alt<Integer> write(ByteBuffer src);

    /**
     * Writes all of {@code src}; when cancelled, {@code src}'s position is at the bytes handed over.
     *
     * @param src the buffer to write from
     * @return an alternative that commits with the first byte written and ends when all are
     */
    default Alt<Void> writeAll(ByteBuffer src) {
        return Alt.guard(Job.of(() -> src.hasRemaining()
                ? write(src).afterJob(n -> writeRest(this, src))
                : Alt.<Void>always(null)));
    }

    /** {@return a job that ends the output side} The peer reads end of stream after what was written. */
    Job<Void> shutdownOutput();

    /** {@return a job that closes both sides and wakes the fibers waiting on this end} Idempotent. */
    Job<Void> close();

    private static Job<Void> writeRest(Connection c, ByteBuffer src) {
        return src.hasRemaining() ? c.write(src).flatMap(n -> writeRest(c, src)) : Job.unit();
    }
}
