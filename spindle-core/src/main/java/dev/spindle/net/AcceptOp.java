package dev.spindle.net;

import dev.spindle.internal.net.IoOp;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.io.IOException;
import java.nio.channels.SelectionKey;

/** {@link TcpListener#accept}: undoable, so a connection accepted by a lost commit waits for the next accept. */
final class AcceptOp implements IoOp<TcpStream> {
    private final TcpListener listener;

    AcceptOp(TcpListener listener) {
        this.listener = listener;
    }

    @Override
    public boolean undoable() {
        return true;
    }

    @Override
    public Object attempt() throws IOException {
        TcpStream s = listener.acceptNow();
        return s == null ? NOT_READY : s;
    }

    @Override
    public void undo(Object outcome) {
        listener.unaccept(outcome);
    }

    @Override
    public void register(Work waiter, Worker current) {
        listener.port().add(waiter, SelectionKey.OP_ACCEPT, current);
    }

    @Override
    public void deregister(Work waiter) {
        listener.port().remove(waiter);
    }

    @Override
    public String toString() {
        return "accept " + listener;
    }
}
