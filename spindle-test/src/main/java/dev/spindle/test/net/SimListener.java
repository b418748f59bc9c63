package dev.spindle.test.net;

import dev.spindle.Alt;
import dev.spindle.IVar;
import dev.spindle.Job;
import dev.spindle.Mailbox;
import java.nio.channels.ClosedChannelException;

/**
 * A listener of a {@link SimNetwork}: arriving connections wait in a mailbox (an unbounded backlog). Closing
 * it resets the connections still waiting there, as closing a TCP listener does.
 */
final class SimListener implements Listener {
    private final SimNetwork network;
    private final String host;
    private final int port;
    private final Mailbox<SimConnection> backlog;
    private final IVar<Void> closed;
    /** Whether {@link #close} has run: a connection offered after it is reset (the simulation is one thread). */
    private boolean isClosed;

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
        return Job.defer(() -> isClosed ? c.resetUnaccepted() : backlog.send(c));
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public Job<Void> close() {
        return Job.defer(() -> {
            if (isClosed) {
                return Job.unit();
            }
            isClosed = true;
            network.unbind(host, port);
            return resetBacklog().then(closed.tryFill(null)).then(Job.unit()); // no accept takes one meanwhile
        });
    }

    /** Resets every connection waiting in the backlog; takes only what is there, never waits. */
    private Job<Void> resetBacklog() {
        return Alt.choose(backlog.take(), Alt.always((SimConnection) null))
                .flatMap(c -> c == null ? Job.unit() : c.resetUnaccepted().then(resetBacklog()));
    }

    @Override
    public String toString() {
        return "listener " + host + ":" + port;
    }
}
