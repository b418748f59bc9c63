package dev.spindle.net;

import dev.spindle.internal.net.IoOp;
import dev.spindle.internal.net.Port;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One connection attempt of {@link TcpStream#connect}, made fresh at each instantiation: undoable (a
 * stream connected by a lost commit is closed), and its socket is closed when it is abandoned.
 */
final class ConnectOp implements IoOp<TcpStream> {
    private final SocketChannel channel;
    private final Port port;

    ConnectOp(SocketChannel channel) {
        this.channel = channel;
        this.port = new Port(channel);
    }

    @Override
    public boolean undoable() {
        return true;
    }

    @Override
    public Object attempt() throws IOException {
        try {
            return channel.finishConnect() ? new TcpStream(channel, port) : NOT_READY;
        } catch (IOException | RuntimeException e) {
            abandoned();
            throw e;
        }
    }

    @Override
    public void undo(Object outcome) {
        abandoned();
    }

    @Override
    public void register(Work waiter, Worker current) {
        port.add(waiter, SelectionKey.OP_CONNECT, current);
    }

    @Override
    public void deregister(Work waiter) {
        port.remove(waiter);
    }

    @Override
    public void abandoned() {
        port.closeQuietly(); // the attempt is given up; nothing else holds this socket
    }

    @Override
    public String toString() {
        return "connect " + channel;
    }
}
