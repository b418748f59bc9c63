package dev.spindle.net;

import dev.spindle.internal.net.IoOp;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;

/** {@link TcpStream#read}: undoable, so a read that loses its commit gives its bytes back to the stream. */
final class ReadOp implements IoOp<Integer> {
    private final TcpStream stream;
    private final ByteBuffer dst;

    ReadOp(TcpStream stream, ByteBuffer dst) {
        this.stream = stream;
        this.dst = dst;
    }

    @Override
    public boolean undoable() {
        return true;
    }

    @Override
    public boolean worthAttempting() {
        return stream.mayHaveBytes() || !dst.hasRemaining(); // no room: 0 at once, as SocketChannel.read gives
    }

    @Override
    public Object attempt() throws IOException {
        int n = stream.readNow(dst);
        return n == 0 && dst.hasRemaining() ? NOT_READY : n;
    }

    @Override
    public void undo(Object outcome) {
        stream.unread(dst, outcome);
    }

    @Override
    public void register(Work waiter, Worker current) {
        stream.port().add(waiter, SelectionKey.OP_READ, current);
    }

    @Override
    public void deregister(Work waiter) {
        stream.port().remove(waiter);
    }

    @Override
    public void arrived() {
        stream.port().arrived();
    }

    @Override
    public String toString() {
        return "read " + stream;
    }
}
