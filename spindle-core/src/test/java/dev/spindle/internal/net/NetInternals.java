package dev.spindle.internal.net;

import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** Helpers of the poller tests: bare engines, work items, and a connected loopback pair. */
final class NetInternals {
    private static final VarHandle BLOCKING;

    static {
        try {
            BLOCKING = MethodHandles.privateLookupIn(NetPoller.class, MethodHandles.lookup())
                    .findVarHandle(NetPoller.class, "blocking", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private NetInternals() {
    }

    /** Waits (at most 10 s) until a worker of {@code poller}'s engine is in, or entering, a blocking select. */
    static void awaitBlockingSelect(NetPoller poller) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!(boolean) BLOCKING.getVolatile(poller)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for the idle worker's blocking select");
            }
            Thread.sleep(1);
        }
    }

    /** An engine of one worker whose uncaught failures fail the test. */
    static Engine engine(String name) {
        return new Engine(name, 1, true, e -> {
            throw new AssertionError(e);
        });
    }

    /** A work item that runs {@code body}; a failure fails the test. */
    static Work work(Runnable body) {
        return workOn(w -> body.run());
    }

    /** A work item that runs {@code body} with the worker running it; a failure fails the test. */
    static Work workOn(Consumer<Worker> body) {
        return new Work() {
            @Override
            public void doWork(Worker w) {
                body.accept(w);
            }

            @Override
            public void doHandle(Worker w, Throwable e) {
                throw new AssertionError("a test item failed", e);
            }
        };
    }

    /** A connected loopback TCP pair: a blocking client and the accepted end, non-blocking. */
    record Loopback(ServerSocketChannel server, SocketChannel client, SocketChannel accepted) implements AutoCloseable {
        static Loopback open() throws IOException {
            ServerSocketChannel server = ServerSocketChannel.open()
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel client = SocketChannel.open(server.getLocalAddress());
            SocketChannel accepted = server.accept();
            accepted.configureBlocking(false);
            return new Loopback(server, client, accepted);
        }

        @Override
        public void close() throws IOException {
            try (server; client; accepted) {
                // closes all three, the last first
            }
        }
    }
}
