package dev.spindle.test.net;

import dev.spindle.Alt;
import dev.spindle.BoundedMailbox;
import dev.spindle.Channel;
import dev.spindle.IVar;
import dev.spindle.Job;
import dev.spindle.internal.run.DroppedValues;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;

/**
 * One end of a simulated connection. Bytes go writer -> outbound channel -> link fiber (latency, partitions,
 * reset faults) -> the peer's receive buffer -> reader, one chunk (one write) at a time. The outbound channel
 * is a rendezvous channel and the receive buffer holds {@link #RECEIVE_CHUNKS} chunks, so a writer waits
 * while the link carries its previous chunk and the reader's buffer is full (back-pressure); a read or write
 * that loses a choose hands nothing over. A reader keeps the rest of a chunk larger than its buffer, and a
 * read with room left also takes the chunks already in the receive buffer, as a TCP read takes what the
 * socket holds: so the bytes of two writes may come in one read.
 */
final class SimConnection implements Connection {
    static {
        // a new connection an accept or connect gave to a step whose fiber was cancelled, or a race dropped
        DroppedValues.register(SimConnection.class, v -> ((SimConnection) v).closeIfUntouched());
    }

    /** The largest chunk one write hands over. */
    private static final int CHUNK = 64 * 1024;
    /** How many chunks a receive buffer holds before the link waits for the reader. */
    private static final int RECEIVE_CHUNKS = 4;
    /** The end-of-stream marker a link delivers after the writer's side shut down. */
    private static final byte[] EOF = new byte[0];
    /** What a read's look for chunks already arrived gives when there is none. */
    private static final byte[] NONE_ARRIVED = new byte[0];

    private final SimNetwork network;
    private final String name;
    private final String host;
    private final Channel<byte[]> outbound;
    /** Chunks arrived and not yet read: a bounded FIFO, the receive buffer. */
    private final BoundedMailbox<byte[]> inbound;
    /** Filled when this end's output is shut down (shutdownOutput or close): its link sends EOF. */
    private final IVar<Void> outputDone;
    /** Filled when this end fails (closed here, or reset): wakes its readers, writers and link. */
    private final IVar<IOException> failure;
    /** The failure, as a plain field for the checks at instantiation (the simulation is single-threaded). */
    private IOException failed;
    private boolean outputShut;
    /** Set by {@link #close}: this end's own operations fail with ClosedChannelException from then on. */
    private boolean closed;
    private boolean eof;
    /** Chunks of bytes in the receive buffer (not counting an end-of-stream marker there). */
    private int chunksQueued;
    /** Bytes of the last chunk that did not fit the reader's buffer. */
    private ByteBuffer pending;
    /** True until the first call of an operation: a dropped connection is closed only while nobody used it. */
    // plain, like every field here: the simulation runs on one thread
    private boolean untouched = true;

    /** The other end; set once by {@link #pair}. */
    private SimConnection peer;

    private SimConnection(SimNetwork network, String name, String host) {
        this.network = network;
        this.name = name;
        this.host = host;
        this.outbound = new Channel<>("net " + name + " out");
        this.inbound = new BoundedMailbox<>(RECEIVE_CHUNKS, "net " + name + " in");
        this.outputDone = new IVar<>("net " + name + " output done");
        this.failure = new IVar<>("net " + name + " failure");
    }

    /** The two ends of a new connection from {@code client} to {@code server}. */
    record Pair(SimNetwork network, SimConnection client, SimConnection server) {
        /** Starts the two link fibers (detached: they end with the connection). */
        Job<Void> startLinks() {
            return link(network, client, server).forget().then(link(network, server, client).forget());
        }
    }

    static Pair pair(SimNetwork network, String name, String clientHost, String serverHost) {
        SimConnection client = new SimConnection(network, name + " (client end)", clientHost);
        SimConnection server = new SimConnection(network, name + " (server end)", serverHost);
        client.peer = server;
        server.peer = client;
        return new Pair(network, client, server);
    }

    // ---------------------------------------------------------------- the link

    private static Job<Void> link(SimNetwork net, SimConnection src, SimConnection dst) {
        Alt<byte[]> next = Alt.choose(src.outbound.take(), src.outputDone.read().map(v -> EOF),
                src.failure.read().map(e -> (byte[]) null));
        return next.flatMap(chunk -> chunk == null ? Job.unit() : net.hop(src.host, dst.host).then(Job.defer(() -> {
            if (dst.failed != null) {
                return undeliverable(net, src, dst, chunk);
            }
            if (chunk != EOF && net.resetsNow()) {
                net.note("reset " + src.name + " and " + dst.name + " (a chunk in flight)");
                return reset(src, dst);
            }
            return Alt.choose(dst.inbound.send(chunk).map(v -> {
                if (chunk != EOF) {
                    net.countDelivered(src.host);
                    dst.chunksQueued++;
                }
                return true;
            }), dst.failure.read().map(e -> false))
                    .flatMap(delivered -> !delivered ? undeliverable(net, src, dst, chunk)
                            : chunk != EOF ? link(net, src, dst) : Job.unit());
        })));
    }

    /**
     * Ends a link whose destination failed before its chunk was delivered. Bytes that reach an end closed by
     * its owner reset the sender, one hop later, as TCP answers them with a reset.
     */
    private static Job<Void> undeliverable(SimNetwork net, SimConnection src, SimConnection dst, byte[] chunk) {
        if (chunk == EOF || !dst.closed) {
            return Job.unit();
        }
        net.note("reset " + src.name + " (it sent to " + dst.name + ", closed)");
        return net.hop(dst.host, src.host).then(src.resetByPeer());
    }

    private Job<Void> resetByPeer() {
        return fail(new SocketException("simulated: connection reset by peer (" + name + ")"));
    }

    private static Job<Void> reset(SimConnection a, SimConnection b) {
        return a.fail(new SocketException("simulated: connection reset (" + a.name + ")"))
                .then(b.fail(new SocketException("simulated: connection reset (" + b.name + ")")));
    }

    /** {@return this end's name, as traces and deadlock reports show it} */
    String name() {
        return name;
    }

    /** Resets this connection, one that its listener closed before accepting it, as a TCP listener does. */
    Job<Void> resetUnaccepted() {
        return Job.defer(() -> {
            network.note("reset " + peer.name + " (its listener closed before accepting it)");
            return reset(this, peer);
        });
    }

    private Job<Void> fail(IOException e) {
        return Job.defer(() -> {
            if (failed != null) {
                return Job.unit();
            }
            failed = e;
            return failure.tryFill(e).then(Job.unit());
        });
    }

    // ---------------------------------------------------------------- Connection

    @Override
    public Alt<Integer> read(ByteBuffer dst) {
        untouched = false;
        return Alt.guard(Job.of(() -> {
            checkOpen();
            if (dst.isReadOnly()) {
                throw new IllegalArgumentException("read-only buffer");
            }
            if (!dst.hasRemaining()) {
                return Alt.always(0); // as SocketChannel.read, even at end of stream or after a reset
            }
            if (pending != null) {
                return Alt.always(takePending(dst)).afterJob(n -> alsoArrived(dst, n));
            }
            if (failed != null) {
                throw failed;
            }
            if (eof) {
                return Alt.always(-1);
            }
            return Alt.choose(inbound.take().afterJob(chunk -> arrived(chunk, dst)),
                    failure.read().afterJob(Job::failure));
        }));
    }

    private Job<Integer> arrived(byte[] chunk, ByteBuffer dst) {
        if (chunk == EOF) {
            eof = true;
            return Job.result(-1);
        }
        chunksQueued--;
        pending = ByteBuffer.wrap(chunk);
        return alsoArrived(dst, takePending(dst));
    }

    /**
     * A read that has taken {@code n} bytes takes those of the chunks already arrived while its buffer has
     * room and it took the last chunk whole (not cut short by its buffer or a split fault). Never waits; an
     * end of stream already arrived is noted for the next read.
     */
    private Job<Integer> alsoArrived(ByteBuffer dst, int n) {
        if (pending != null || !dst.hasRemaining()) {
            return Job.result(n);
        }
        return Alt.choose(inbound.take(), Alt.always(NONE_ARRIVED)).flatMap(chunk -> {
            if (chunk == NONE_ARRIVED) {
                return Job.result(n);
            }
            if (chunk == EOF) {
                eof = true;
                return Job.result(n);
            }
            chunksQueued--;
            pending = ByteBuffer.wrap(chunk);
            return alsoArrived(dst, n + takePending(dst));
        });
    }

    private int takePending(ByteBuffer dst) {
        int n = network.transferSize(Math.min(pending.remaining(), dst.remaining()), "a read", this);
        dst.put(dst.position(), pending, pending.position(), n);
        dst.position(dst.position() + n);
        pending.position(pending.position() + n);
        if (!pending.hasRemaining()) {
            pending = null;
        }
        return n;
    }

    @Override
    public Alt<Integer> write(ByteBuffer src) {
        untouched = false;
        return Alt.guard(Job.of(() -> {
            checkOpen();
            if (failed != null) {
                throw failed;
            }
            if (outputShut) {
                throw new ClosedChannelException();
            }
            if (!src.hasRemaining()) {
                return Alt.always(0);
            }
            byte[] chunk = new byte[network.transferSize(Math.min(CHUNK, src.remaining()), "a write", this)];
            src.get(src.position(), chunk);
            return Alt.choose(outbound.give(chunk).map(v -> {
                src.position(src.position() + chunk.length); // handed over: only now are the bytes sent
                return chunk.length;
            }), failure.read().afterJob(Job::failure));
        }));
    }

    /** A closed end fails every operation with ClosedChannelException, whatever else happened to it. */
    private void checkOpen() throws ClosedChannelException {
        if (closed) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public Alt<Void> writeAll(ByteBuffer src) {
        untouched = false;
        return Connection.super.writeAll(src);
    }

    @Override
    public Job<Void> shutdownOutput() {
        untouched = false;
        return Job.defer(() -> {
            outputShut = true;
            return outputDone.tryFill(null).then(Job.unit());
        });
    }

    @Override
    public Job<Void> close() {
        untouched = false;
        return Job.defer(() -> {
            if (closed) {
                return Job.unit();
            }
            closed = true;
            if (pending != null || chunksQueued > 0) { // bytes unread: TCP resets the peer instead of a FIN
                network.note("reset " + peer.name + " (" + name + " closed with bytes unread)");
                outputShut = true;
                network.detach(network.hop(host, peer.host).then(peer.resetByPeer()));
                return fail(new ClosedChannelException());
            }
            return shutdownOutput().then(fail(new ClosedChannelException()));
        });
    }

    /** Closes a connection nobody has used, dropped on its way to user code, in a fiber of its own. */
    private void closeIfUntouched() {
        if (untouched) {
            network.detach(close());
        }
    }

    @Override
    public String toString() {
        return "SimConnection(" + name + ")";
    }
}
