package dev.spindle.net;

import dev.spindle.Alt;
import dev.spindle.Job;
import dev.spindle.internal.net.IoAlts;
import dev.spindle.internal.net.IoOp;
import dev.spindle.internal.net.Port;
import dev.spindle.internal.run.DroppedValues;
import java.io.IOException;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Objects;

/**
 * A connected stream socket (TCP, or Unix-domain when connected to a {@link UnixDomainSocketAddress}) whose
 * waiting operations are {@link Alt}s. A fiber waiting on one holds no thread: readiness comes from the
 * scheduler's network poller.
 *
 * <p>{@link #read} gives the number of bytes read, -1 at end of stream, as {@link SocketChannel#read}; a
 * read that loses a choose or is cancelled consumes nothing. {@link #write} waits until at least one byte
 * can be written and gives the count written; {@link #writeAll} writes the whole buffer, and when cancelled
 * leaves the buffer's position at the bytes actually sent. A connection reset by the peer fails with
 * {@link java.net.SocketException}; after {@link #close} every operation, including those already waiting,
 * fails with {@link java.nio.channels.ClosedChannelException}.
 *
 * <p>Each waiting operation has a blocking form ({@link #readBlocking} and so on) for direct-style bodies
 * ({@link dev.spindle.Direct}): it suspends the calling fiber, never its worker thread.
 */
public final class TcpStream implements AutoCloseable {
    static {
        // a new stream a committed accept or connect handed to a bind step whose fiber was cancelled meanwhile
        DroppedValues.register(TcpStream.class, s -> ((TcpStream) s).closeIfUntouched());
    }

    private final SocketChannel channel;
    private final Port port;
    /** Guards reads and {@link #unread}: bytes given back by a read that lost its commit come first. */
    private final Object readLock = new Object();
    /** Bytes given back, in read order, ready to be read (flip mode); null when none. Under readLock. */
    private ByteBuffer pushback;
    /** A read failure given back by a read that lost its commit; thrown by the next read. Under readLock. */
    private IOException pendingFailure;
    /**
     * Whether the last read from the socket took less than it had room for, so the socket is likely empty
     * and the next read waits for readiness without trying first (a request/response peer is then still
     * writing its next request). Written under readLock; read racily as a hint: a stale true only costs a
     * wait for a select that reports the bytes at once, and {@link #unread} clears it before it publishes
     * given-back bytes, which no select reports.
     */
    private volatile boolean drained;
    /**
     * True until the first call of an operation: while true the stream is new, nobody has used it, and a
     * cancelled step that drops it closes it ({@link DroppedValues}); after that it is its holders' to close,
     * so a step dropping a stream that other code uses never closes it. A plain field: the stream's
     * publication orders the initial true, and a racing clear can only come from code that shared a stream
     * it never used, which the rule treats as new.
     */
    private boolean untouched = true;

    TcpStream(SocketChannel channel, Port port) {
        this.channel = channel;
        this.port = port;
    }

    /** Wraps an accepted channel. */
    static TcpStream accepted(SocketChannel channel) throws IOException {
        channel.configureBlocking(false);
        return new TcpStream(channel, new Port(channel));
    }

    /**
     * {@return an alternative that connects to {@code address} and gives the stream} Each instantiation
     * starts a fresh connection attempt; one that loses a choose is closed. A refused connection fails with
     * {@link java.net.ConnectException}.
     *
     * @param address the address to connect to (a {@link UnixDomainSocketAddress} for a Unix-domain socket)
     */
    public static Alt<TcpStream> connect(SocketAddress address) {
        Objects.requireNonNull(address, "address");
        return Alt.guard(Job.of(() -> {
            SocketChannel ch = address instanceof UnixDomainSocketAddress
                    ? SocketChannel.open(StandardProtocolFamily.UNIX) : SocketChannel.open();
            try {
                ch.configureBlocking(false);
                ch.connect(address);
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
            return IoAlts.alt(new ConnectOp(ch));
        }));
    }

    /**
     * Connects to {@code address}, the blocking form of {@link #connect} for direct-style bodies.
     *
     * @param address the address to connect to
     * @return the connected stream
     * @throws IOException if the connection fails ({@link java.net.ConnectException} when refused)
     */
    public static TcpStream connectBlocking(SocketAddress address) throws IOException {
        return Blocking.await(connect(address));
    }

    // ---------------------------------------------------------------- reading

    /**
     * {@return an alternative that reads into {@code dst} once bytes are available: gives the count read, or
     * -1 at end of stream (0 only when {@code dst} has no room)} Losing a choose, or being cancelled,
     * consumes nothing.
     *
     * @param dst the buffer to read into
     */
    public Alt<Integer> read(ByteBuffer dst) {
        touch();
        return IoAlts.alt(new ReadOp(this, Objects.requireNonNull(dst, "dst")));
    }

    /**
     * Reads into {@code dst}, the blocking form of {@link #read} for direct-style bodies.
     *
     * @param dst the buffer to read into
     * @return the count read, or -1 at end of stream
     * @throws IOException if the read fails, or the stream is closed
     */
    public int readBlocking(ByteBuffer dst) throws IOException {
        return Blocking.await(read(dst));
    }

    /** Reads what is there without waiting (given-back bytes first): the count, 0 when nothing, -1 at end. */
    int readNow(ByteBuffer dst) throws IOException {
        synchronized (readLock) {
            ByteBuffer p = pushback;
            if (p != null) {
                if (dst.isReadOnly()) { // what channel.read below checks itself
                    throw new IllegalArgumentException("read-only buffer");
                }
                int n = Math.min(p.remaining(), dst.remaining());
                dst.put(dst.position(), p, p.position(), n);
                dst.position(dst.position() + n);
                p.position(p.position() + n);
                if (!p.hasRemaining()) {
                    pushback = null;
                }
                return n;
            }
            IOException f = pendingFailure;
            if (f != null) {
                pendingFailure = null;
                throw f;
            }
            int room = dst.remaining();
            int n = channel.read(dst);
            drained = n >= 0 && n < room;
            return n;
        }
    }

    /** Whether a read is worth trying before readiness: false when the last read drained the socket. */
    boolean mayHaveBytes() {
        return !drained;
    }

    /** Gives back what a read that lost its commit took: its bytes (the last ones put in {@code dst}). */
    void unread(ByteBuffer dst, Object outcome) {
        synchronized (readLock) {
            drained = false;
            if (outcome instanceof IOException e) {
                pendingFailure = e;
            } else if (outcome instanceof Integer n && n > 0) {
                int start = dst.position() - n;
                ByteBuffer back = ByteBuffer.allocate(n + (pushback == null ? 0 : pushback.remaining()));
                back.put(0, dst, start, n);
                back.position(n);
                if (pushback != null) {
                    back.put(pushback);
                }
                back.flip();
                pushback = back;
                dst.position(start);
            } // -1 (end of stream) reads again as -1
        }
        port.wakeAll(SelectionKey.OP_READ); // readers already waiting: no select reports what came back
    }

    // ---------------------------------------------------------------- writing

    /**
     * {@return an alternative that writes from {@code src} once at least one byte can be written, and gives
     * the count written (0 only when {@code src} is empty)} In a choose it commits when the socket is
     * writable.
     *
     * @param src the buffer to write from
     */
    public Alt<Integer> write(ByteBuffer src) {
        touch();
        WriteOp op = new WriteOp(this, Objects.requireNonNull(src, "src"));
        return IoAlts.alt(op).afterJob(r -> written(op, r));
    }

    /** A committed write's value, or a plain retry when the socket filled up between commit and write. */
    private static Job<Integer> written(WriteOp op, Object r) {
        return r == IoOp.NOT_READY ? IoAlts.alt(op).flatMap(again -> written(op, again)) : Job.result((Integer) r);
    }

    /**
     * Writes from {@code src}, the blocking form of {@link #write} for direct-style bodies.
     *
     * @param src the buffer to write from
     * @return the count written
     * @throws IOException if the write fails, or the stream is closed
     */
    public int writeBlocking(ByteBuffer src) throws IOException {
        return Blocking.await(write(src));
    }

    /**
     * {@return an alternative that writes all of {@code src}: commits with the first byte written, then
     * writes the rest} When cancelled, {@code src}'s position is at the bytes actually sent.
     *
     * @param src the buffer to write from
     */
    public Alt<Void> writeAll(ByteBuffer src) {
        touch();
        Objects.requireNonNull(src, "src");
        return Alt.guard(Job.of(() -> src.hasRemaining()
                ? write(src).afterJob(n -> rest(src))
                : Alt.<Void>always(null)));
    }

    private Job<Void> rest(ByteBuffer src) {
        return src.hasRemaining() ? write(src).flatMap(n -> rest(src)) : Job.unit();
    }

    /**
     * Writes all of {@code src}, the blocking form of {@link #writeAll} for direct-style bodies.
     *
     * @param src the buffer to write from
     * @throws IOException if a write fails, or the stream is closed
     */
    public void writeAllBlocking(ByteBuffer src) throws IOException {
        Blocking.await(writeAll(src));
    }

    /**
     * Shuts down the output side: the peer reads end of stream once it has read what was sent.
     *
     * @throws IOException if the socket cannot shut its output down (it is not connected, say)
     */
    public void shutdownOutput() throws IOException {
        touch();
        channel.shutdownOutput();
    }

    // ---------------------------------------------------------------- the socket

    /**
     * Sets a socket option ({@link java.net.StandardSocketOptions#TCP_NODELAY} and the like).
     *
     * @param <T> the type of the option's value
     * @param name the option
     * @param value its new value
     * @return this stream
     * @throws IOException if the socket refuses the option, or is closed
     */
    public <T> TcpStream setOption(SocketOption<T> name, T value) throws IOException {
        touch();
        channel.setOption(name, value);
        return this;
    }

    /**
     * {@return a socket option's value}
     *
     * @param <T> the type of the option's value
     * @param name the option
     * @throws IOException if the socket is closed
     */
    public <T> T getOption(SocketOption<T> name) throws IOException {
        touch();
        return channel.getOption(name);
    }

    /**
     * {@return the local address}
     *
     * @throws IOException if the socket is closed
     */
    public SocketAddress localAddress() throws IOException {
        touch();
        return channel.getLocalAddress();
    }

    /**
     * {@return the peer's address}
     *
     * @throws IOException if the socket is closed
     */
    public SocketAddress remoteAddress() throws IOException {
        touch();
        return channel.getRemoteAddress();
    }

    /** {@return whether {@link #close} has been called} */
    public boolean isClosed() {
        touch();
        return !channel.isOpen();
    }

    /**
     * Closes the socket and wakes every fiber waiting on it, which then fails with
     * {@link java.nio.channels.ClosedChannelException}. Idempotent; never waits.
     */
    @Override
    public void close() throws IOException {
        touch();
        port.close();
    }

    /** Marks the stream as used: from now on only its holders close it. */
    private void touch() {
        if (untouched) {
            untouched = false;
        }
    }

    /** Closes a stream nobody has used, dropped by a cancelled step; a failure leaves nothing else to do. */
    private void closeIfUntouched() {
        if (untouched) {
            port.closeQuietly();
        }
    }

    SocketChannel channel() {
        return channel;
    }

    Port port() {
        return port;
    }

    @Override
    public String toString() {
        try { // the channel's own toString names its implementation class; dumps want the two ends
            return "TcpStream(" + channel.getLocalAddress() + " -> " + channel.getRemoteAddress() + ")";
        } catch (IOException e) {
            return "TcpStream(closed)";
        }
    }
}
