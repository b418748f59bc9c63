package dev.spindle.test.net;

import dev.spindle.Alt;
import dev.spindle.IVar;
import dev.spindle.Job;
import dev.spindle.Mailbox;
import java.nio.channels.ClosedChannelException;

/** A listener of a {@link SimNetwork}: arriving connections wait in a mailbox (an unbounded backlog). */
final class SimListener implements Listener {
    private final SimNetwork network;
    private final String host;
    private final int port;
    private final Mailbox<SimConnection> backlog;
    private final IVar<Void> closed;

    SimListener(SimNetwork network, String host, int port, Mailbox<SimConnection> backlog) {
        this.network = network;
        this.host = host;
        this.port = port;
        this.backlog = backlog;
        this.closed = new IVar<>("closed " + host + ":" + port);
    }

    @Override
    public Alt<Connection> accept() {
        return Alt.choose(backlog.take().map(c -> (Connection) c),
                closed.read().afterJob(v -> Job.<Connection>failure(new ClosedChannelException())));
    }

    /** Queues an arriving connection. */
    Job<Void> offer(SimConnection c) {
        return backlog.send(c);
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public Job<Void> close() {
        return Job.run(() -> network.unbind(host, port)).then(closed.tryFill(null)).then(Job.unit());
    }

    @Override
    public String toString() {
        return "listener " + host + ":" + port;
    }
}
