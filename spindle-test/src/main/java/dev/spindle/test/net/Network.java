package dev.spindle.test.net;

import dev.spindle.Job;

/**
 * The network as one host sees it: listen on a port of this host, connect to a port of a named host. Code
 * under test takes a {@code Network} and runs unchanged on the real one ({@link #system()}) and on a
 * simulated one ({@link SimNetwork#host}).
 */
public interface Network {
    /**
     * Listens on {@code port} of this host.
     *
     * @param port the port (0: any free port)
     * @return a job that gives the listener
     */
    Job<Listener> listen(int port);

    /**
     * Connects to {@code port} of {@code host}. Fails with {@link java.net.ConnectException} when nobody
     * listens there (or, simulated, when the attempt is dropped).
     *
     * @param host the host to connect to
     * @param port the port it listens on
     * @return a job that gives the connection
     */
    Job<Connection> connect(String host, int port);

    /**
     * {@return the real network, through {@code dev.spindle.net} sockets; listeners bind to loopback} A
     * connect resolves its host name on a virtual thread, so a slow name lookup never holds a worker.
     */
    static Network system() {
        return SystemNetwork.INSTANCE;
    }
}
