package dev.spindle.test.net;

import dev.spindle.Alt;
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
 * reset faults) -> the peer's inbound channel -> reader, one chunk at a time: both channels are rendezvous
 * channels, so a writer waits while the link still carries its previous chunk (back-pressure), and a read or
 * write that loses a choose hands nothing over. A reader keeps the rest of a chunk larger than its buffer.
 */
final class SimConnection implements Connection {
    static {
        // a new connection an accept or connect gave to a step whose fiber was cancelled, or a race dropped
        DroppedValues.register(SimConnection.class, v -> ((SimConnection) v).closeIfUntouched());
    }

    /** The largest chunk one write hands over. */
    private static final int CHUNK = 64 * 1024;
    /** The end-of-stream marker a link delivers after the writer's side shut down. */
    private static final byte[] EOF = new byte[0];

    private final SimNetwork network;
    private final String name;
    private final String host;
    private final Channel<byte[]> outbound;
    private final Channel<byte[]> inbound;
    /** Filled when this end's output is shut down (shutdownOutput or close): its link sends EOF. */
    private final IVar<Void> outputDone;
    /** Filled when this end fails (closed here, or reset): wakes its readers, writers and link. */
    private final IVar<IOException> failure;
    /** The failure, as a plain field for the checks at instantiation (the simulation is single-threaded). */
    private IOException failed;
    private boolean outputShut;
    private boolean eof;
    /** Bytes of the last chunk that did not fit the reader's buffer. */
    private ByteBuffer pending;
    /** True until the first call of an operation: a dropped connection is closed only while nobody used it. */
    // plain, like every field here: the simulation runs on one thread
    private boolean untouched = true;

    private SimConnection(SimNetwork network, String name, String host) {
        this.network = network;
        this.name = name;
        this.host = host;
        this.outbound = new Channel<>("net " + name + " out");
        this.inbound = new Channel<>("net " + name + " in");
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
        return new Pair(network, new SimConnection(network, name + " (client end)", clientHost),
                new SimConnection(network, name + " (server end)", serverHost));
    }

    // ---------------------------------------------------------------- the link

    private static Job<Void> link(SimNetwork net, SimConnection src, SimConnection dst) {
        Alt<byte[]> next = Alt.choose(src.outbound.take(), src.outputDone.read().map(v -> EOF),
                src.failure.read().map(e -> (byte[]) null));
        return next.flatMap(chunk -> chunk == null ? Job.unit() : net.hop(src.host, dst.host).then(Job.defer(() -> {
            if (chunk != EOF && net.resetsNow()) {
                return reset(src, dst);
            }
            return Alt.choose(dst.inbound.give(chunk).map(v -> {
                if (chunk != EOF) {
                    net.countDelivered(src.host);
                }
                return true;
            }), dst.failure.read().map(e -> false))
                    .flatMap(delivered -> delivered && chunk != EOF ? link(net, src, dst) : Job.unit());
        })));
    }

    private static Job<Void> reset(SimConnection a, SimConnection b) {
        return a.fail(new SocketException("simulated: connection reset (" + a.name + ")"))
                .then(b.fail(new SocketException("simulated: connection reset (" + b.name + ")")));
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
            if (pending != null) {
                return Alt.always(takePending(dst));
            }
            if (failed != null) {
                throw failed;
            }
            if (eof) {
                return Alt.always(-1);
            }
            return Alt.choose(inbound.take().map(chunk -> arrived(chunk, dst)), failure.read().afterJob(Job::failure));
        }));
    }

    private int arrived(byte[] chunk, ByteBuffer dst) {
        if (chunk == EOF) {
            eof = true;
            return -1;
        }
        pending = ByteBuffer.wrap(chunk);
        return takePending(dst);
    }

    private int takePending(ByteBuffer dst) {
        int n = Math.min(pending.remaining(), dst.remaining());
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
            if (failed != null) {
                throw failed;
            }
            if (outputShut) {
                throw new ClosedChannelException();
            }
            if (!src.hasRemaining()) {
                return Alt.always(0);
            }
            byte[] chunk = new byte[Math.min(CHUNK, src.remaining())];
            src.get(src.position(), chunk);
            return Alt.choose(outbound.give(chunk).map(v -> {
                src.position(src.position() + chunk.length); // handed over: only now are the bytes sent
                return chunk.length;
            }), failure.read().afterJob(Job::failure));
        }));
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
        return shutdownOutput().then(fail(new ClosedChannelException()));
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
