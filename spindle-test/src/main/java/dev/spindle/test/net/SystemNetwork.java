package dev.spindle.test.net;

import dev.spindle.Alt;
import dev.spindle.Job;
import dev.spindle.internal.run.DroppedValues;
import dev.spindle.net.TcpListener;
import dev.spindle.net.TcpStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/** {@link Network#system()}: TcpStream and TcpListener behind the {@link Network} interfaces. */
final class SystemNetwork implements Network {
    static final SystemNetwork INSTANCE = new SystemNetwork();

    private SystemNetwork() {
    }

    @Override
    public Job<Listener> listen(int port) {
        return Job.of(() -> {
            TcpListener l = TcpListener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return new Listener() {
                @Override
                public Alt<Connection> accept() {
                    return l.accept().map(Stream::new);
                }

                @Override
                public int port() {
                    return ((InetSocketAddress) l.localAddress()).getPort();
                }

                @Override
                public Job<Void> close() {
                    return Job.of(() -> {
                        l.close();
                        return null;
                    });
                }
            };
        });
    }

    @Override
    public Job<Connection> connect(String host, int port) {
        // resolved on a virtual thread: a name lookup may wait on DNS, which must not hold a worker
        return Job.blocking(() -> new InetSocketAddress(InetAddress.getByName(host), port))
                .flatMap(a -> TcpStream.connect(a).map(Stream::new));
    }

    /** A real stream as a {@link Connection}. */
    private record Stream(TcpStream s) implements Connection {
        static {
            // dropped by a bind step cancelled after its accept or connect committed: close the socket
            DroppedValues.register(Stream.class, v -> DroppedValues.release(((Stream) v).s()));
        }

        @Override
        public Alt<Integer> read(ByteBuffer dst) {
            return s.read(dst);
        }

        @Override
        public Alt<Integer> write(ByteBuffer src) {
            return s.write(src);
        }

        @Override
        public Alt<Void> writeAll(ByteBuffer src) {
            return s.writeAll(src);
        }

        @Override
        public Job<Void> shutdownOutput() {
            return Job.of(() -> {
                s.shutdownOutput();
                return null;
            });
        }

        @Override
        public Job<Void> close() {
            return Job.of(() -> {
                s.close();
                return null;
            });
        }
    }
}
