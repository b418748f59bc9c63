package dev.spindle.net;

import dev.spindle.internal.net.IoOp;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;

/**
 * {@link TcpStream#write}: bytes sent cannot be taken back, so in a choose it commits first and writes
 * after; its value is then the count, or {@code NOT_READY} when the socket filled up meanwhile.
 */
final class WriteOp implements IoOp<Object> {
    private final TcpStream stream;
    private final ByteBuffer src;

    WriteOp(TcpStream stream, ByteBuffer src) {
        this.stream = stream;
        this.src = src;
    }

    @Override
    public boolean undoable() {
        return false;
    }

    @Override
    public Object attempt() throws IOException {
        if (!src.hasRemaining()) {
            return 0;
        }
        int n = stream.channel().write(src);
        return n == 0 ? NOT_READY : n;
    }

    @Override
    public void undo(Object outcome) {
        throw new UnsupportedOperationException("a write cannot be undone");
    }

    @Override
    public void register(Work waiter, Worker current) {
        stream.port().add(waiter, SelectionKey.OP_WRITE, current);
    }

    @Override
    public void deregister(Work waiter) {
        stream.port().remove(waiter);
    }

    @Override
    public String toString() {
        return "write " + stream;
    }
}
