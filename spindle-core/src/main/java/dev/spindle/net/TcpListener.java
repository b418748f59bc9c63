package dev.spindle.net;

import dev.spindle.Alt;
import dev.spindle.internal.net.IoAlts;
import dev.spindle.internal.net.Port;
import java.io.IOException;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * A listening socket (TCP, or Unix-domain for a {@link UnixDomainSocketAddress}) whose {@link #accept} is an
 * {@link Alt}. An accept that loses a choose, or is cancelled, takes no connection: the next one gets it.
 */
public final class TcpListener implements AutoCloseable {
    /** The backlog {@link #bind(SocketAddress)} asks for. */
    public static final int DEFAULT_BACKLOG = 1024;

    private final ServerSocketChannel channel;
    private final Port port;
    private final SocketAddress address;
    /** Connections accepted by accepts that lost their commit, oldest first. Guarded by itself. */
    private final ArrayDeque<TcpStream> givenBack = new ArrayDeque<>();
    /** Set by {@link #close}; a connection given back after it is closed, not kept. Guarded by givenBack. */
    private boolean closed;

    private TcpListener(ServerSocketChannel channel) throws IOException {
        this.channel = channel;
        this.address = channel.getLocalAddress();
        this.port = new Port(channel);
    }

    /**
     * Binds to {@code address} (port 0: any free port, see {@link #localAddress}) with the default backlog.
     * TCP listeners set {@code SO_REUSEADDR}, so a restarted server can bind at once.
     *
     * @param address the address to listen on
     * @return the listener, bound and listening
     * @throws IOException if the socket cannot be opened or bound (the address is in use, say)
     */
    public static TcpListener bind(SocketAddress address) throws IOException {
        return bind(address, DEFAULT_BACKLOG);
    }

    /**
     * Binds to {@code address} with {@code backlog} pending connections at most.
     *
     * @param address the address to listen on (port 0: any free port)
     * @param backlog the most connections waiting to be accepted
     * @return the listener, bound and listening
     * @throws IOException if the socket cannot be opened or bound (the address is in use, say)
     */
    public static TcpListener bind(SocketAddress address, int backlog) throws IOException {
        Objects.requireNonNull(address, "address");
        boolean unix = address instanceof UnixDomainSocketAddress;
        ServerSocketChannel ch = unix ? ServerSocketChannel.open(StandardProtocolFamily.UNIX)
                : ServerSocketChannel.open();
        try {
            if (!unix) {
                ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            }
            ch.bind(address, backlog);
            ch.configureBlocking(false);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return new TcpListener(ch);
    }

    /** {@return an alternative that accepts the next connection} */
    public Alt<TcpStream> accept() {
        return IoAlts.alt(new AcceptOp(this));
    }

    /**
     * Accepts the next connection, the blocking form of {@link #accept} for direct-style bodies.
     *
     * @return the accepted connection
     * @throws IOException if the accept fails, or the listener is closed
     */
    public TcpStream acceptBlocking() throws IOException {
        return Blocking.await(accept());
    }

    /** {@return the bound address (with the actual port when bound to port 0)} */
    public SocketAddress localAddress() {
        return address;
    }

    /**
     * Closes the listener and wakes every fiber waiting in {@link #accept}, which then fails with
     * {@link java.nio.channels.ClosedChannelException}. Idempotent; never waits.
     */
    @Override
    public void close() throws IOException {
        port.close();
        synchronized (givenBack) {
            closed = true;
            for (TcpStream s : givenBack) {
                s.close();
            }
            givenBack.clear();
        }
    }

    TcpStream acceptNow() throws IOException {
        synchronized (givenBack) {
            TcpStream s = givenBack.pollFirst();
            if (s != null) {
                return s;
            }
        }
        SocketChannel ch = channel.accept();
        return ch == null ? null : TcpStream.accepted(ch);
    }

    void unaccept(Object outcome) {
        if (outcome instanceof TcpStream s) {
            boolean kept;
            synchronized (givenBack) {
                kept = !closed;
                if (kept) {
                    givenBack.addFirst(s);
                }
            }
            if (kept) {
                port.wakeAll(SelectionKey.OP_ACCEPT); // acceptors already waiting: no select reports this one
            } else {
                s.port().closeQuietly(); // the listener closed while the losing accept held it: nobody else will
            }
        }
    }

    Port port() {
        return port;
    }

    @Override
    public String toString() {
        return "TcpListener(" + address + (channel.isOpen() ? ")" : ", closed)");
    }
}
