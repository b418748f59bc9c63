package dev.spindle.bench.soak;

import dev.spindle.Alt;
import dev.spindle.Either;
import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import dev.spindle.net.TcpListener;
import dev.spindle.net.TcpStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The soak's network leaves: exchanges with an echo service over real loopback sockets. The service runs
 * on a scheduler of its own (two workers), as a server in another process would; each exchange, on the
 * soak's scheduler, connects, writes a random message, reads the echo back in reads that give up after a
 * millisecond or a few and are tried again (so reads lose their choose all the time, and must consume
 * nothing), checks it byte for byte, and half the time shuts its output and expects end of stream.
 * Exchanges are cancelled by the spawn trees' races, timeouts and cancels like any leaf. Some exchanges
 * connect by racing two connects (the loser's stream, often connected too, is the runtime's to close), and
 * some bound their reads with {@code timeout} instead of a choose (a read that times out takes nothing).
 *
 * <p>At rest every client stream is closed and every connection of the service has ended: a stream a
 * cancellation dropped, or a handler that missed its peer's close, shows up there.
 */
final class TcpEchoes implements AutoCloseable {
    /** Most bytes in one exchange's message: a few reads' worth, well within the sockets' buffers. */
    private static final int MAX_BYTES = 8192;
    /** Longest an exchange waits for its echo before that is a violation (a wake-up lost). */
    private static final Duration ECHO_WITHIN = Duration.ofSeconds(10);
    /** A read's result when its patience ran out first. */
    private static final int GAVE_UP = -2;

    private final SoakState state;
    private final Scheduler service;
    private final TcpListener listener;
    private final SocketAddress address;
    /** Client streams connected and not yet closed. */
    private final AtomicInteger openClients = new AtomicInteger();
    /** Connections the service accepted whose handler has not ended. */
    private final AtomicInteger liveHandlers = new AtomicInteger();
    /** Exchanges whose echo came back whole. */
    final LongAdder echoed = new LongAdder();
    /** Set by {@link #close}, which ends the accept loop on purpose. */
    private volatile boolean closing;
    /** Whether an overdue echo has been reported with the service's fibers. */
    private final AtomicBoolean stallReported = new AtomicBoolean();

    /** Starts the echo service on loopback; violations of the service go to {@code state}. */
    TcpEchoes(SoakState state) throws IOException {
        this.state = state;
        this.service = Scheduler.builder().name("soak-echo").workers(2)
                .uncaughtHandler(e -> state.violations.checkFailure("the echo service", e)).build();
        this.listener = TcpListener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        this.address = listener.localAddress();
        service.submit(acceptLoop()).exceptionally(e -> {
            if (!closing) { // before close, an accept loop that ended leaves every later exchange unanswered
                state.violations.checkFailure("the echo service's accept loop", e);
            }
            return null;
        });
    }

    // ---------------------------------------------------------------- the service

    private Job<Void> acceptLoop() {
        return listener.accept().flatMap(conn -> {
            liveHandlers.incrementAndGet();
            return serve(conn).startDetached().then(acceptLoop());
        });
    }

    /** Echoes until end of stream; I/O failures (a client reset) end it quietly, anything else is reported. */
    private Job<Void> serve(TcpStream conn) {
        ByteBuffer buf = ByteBuffer.allocate(1024);
        return echoLoop(conn, buf).attempt().map(outcome -> {
            if (outcome instanceof Outcome.Failure<?> f && !(f.error() instanceof IOException)) {
                state.violations.checkFailure("an echo handler", f.error());
            }
            return (Void) null;
        }).ensure(Job.run(() -> {
            closeQuietly(conn);
            liveHandlers.decrementAndGet();
        }));
    }

    private static Job<Void> echoLoop(TcpStream conn, ByteBuffer buf) {
        return conn.read(buf.clear()).flatMap(n -> n < 0 ? Job.unit()
                : conn.writeAll(buf.flip()).then(Job.defer(() -> echoLoop(conn, buf))));
    }

    // ---------------------------------------------------------------- the leaves

    /** A random exchange named {@code name}, in combinator or direct style. */
    Job<Void> exchange(Random r, String name) {
        byte[] message = new byte[1 + r.nextInt(MAX_BYTES)];
        r.nextBytes(message);
        Duration patience = Mixes.ms(1 + r.nextInt(5));
        boolean halfClose = r.nextBoolean();
        if (r.nextBoolean()) {
            return Job.direct(() -> {
                try (TcpStream c = TcpStream.connectBlocking(address)) {
                    openClients.incrementAndGet();
                    try {
                        c.writeAllBlocking(ByteBuffer.wrap(message));
                        long deadline = System.nanoTime() + ECHO_WITHIN.toNanos();
                        ByteBuffer echo = ByteBuffer.allocate(message.length);
                        while (echo.hasRemaining()) {
                            checkRead(name, readOrGiveUp(c, echo, patience, false).await(), echo, deadline);
                        }
                        checkEcho(name, message, echo);
                        if (halfClose) {
                            c.shutdownOutput();
                            checkEnd(name, readOrGiveUp(c, ByteBuffer.allocate(1), ECHO_WITHIN, false).await());
                        }
                    } finally {
                        openClients.decrementAndGet();
                    }
                }
                return null;
            });
        }
        boolean racedConnect = r.nextInt(4) == 0;
        boolean timeoutReads = r.nextBoolean();
        Job<TcpStream> connect = !racedConnect ? TcpStream.connect(address)
                : Job.race(TcpStream.connect(address), TcpStream.connect(address)).map(TcpEchoes::either);
        return connect.flatMap(c -> {
            openClients.incrementAndGet();
            ByteBuffer echo = ByteBuffer.allocate(message.length);
            long deadline = System.nanoTime() + ECHO_WITHIN.toNanos();
            Job<Void> end = !halfClose ? Job.unit() : Job.of(() -> {
                c.shutdownOutput();
                return null;
            }).then(readOrGiveUp(c, ByteBuffer.allocate(1), ECHO_WITHIN, timeoutReads)).map(n -> {
                        checkEnd(name, n);
                        return null;
                    });
            return c.writeAll(ByteBuffer.wrap(message))
                    .then(readBack(name, c, echo, patience, deadline, timeoutReads))
                    .then(Job.run(() -> checkEcho(name, message, echo)))
                    .then(end)
                    .ensure(Job.run(() -> {
                        closeQuietly(c);
                        openClients.decrementAndGet();
                    }));
        });
    }

    private Job<Void> readBack(String name, TcpStream c, ByteBuffer echo, Duration patience, long deadline,
            boolean timeoutReads) {
        if (!echo.hasRemaining()) {
            return Job.unit();
        }
        return readOrGiveUp(c, echo, patience, timeoutReads).flatMap(n -> {
            checkRead(name, n, echo, deadline);
            return readBack(name, c, echo, patience, deadline, timeoutReads);
        });
    }

    /**
     * One read into {@code dst}: its count, -1 at end of stream, or {@link #GAVE_UP} after {@code patience};
     * bounded by a choose with a timer, or by {@code timeout} (which must take nothing when it times out).
     */
    private static Job<Integer> readOrGiveUp(TcpStream c, ByteBuffer dst, Duration patience, boolean timeout) {
        if (timeout) {
            return c.read(dst).timeout(patience).recoverWith(e -> e instanceof TimeoutException
                    ? Job.result(GAVE_UP) : Job.failure(e));
        }
        return Alt.choose(c.read(dst), Alt.after(patience).wrap(v -> GAVE_UP));
    }

    /** The winner of a race of two connects. */
    private static TcpStream either(Either<TcpStream, TcpStream> winner) {
        return winner instanceof Either.Left<TcpStream, TcpStream> left ? left.value()
                : ((Either.Right<TcpStream, TcpStream>) winner).value();
    }

    /** Fails the exchange on end of stream before the whole echo, or when the echo is overdue. */
    private void checkRead(String name, int n, ByteBuffer echo, long deadline) {
        if (n == -1) {
            throw new IllegalStateException(name + ": the echo service closed after " + echo.position() + " of "
                    + echo.capacity() + " bytes");
        }
        if (n == GAVE_UP && System.nanoTime() - deadline > 0) {
            if (stallReported.compareAndSet(false, true)) {
                state.violations.add("the echo service's fibers at the first overdue echo (" + name + "):\n"
                        + service.dump().toText());
            }
            throw new IllegalStateException(name + ": " + echo.position() + " of " + echo.capacity()
                    + " bytes echoed after " + ECHO_WITHIN.toSeconds() + " s");
        }
    }

    private void checkEcho(String name, byte[] message, ByteBuffer echo) {
        int at = Arrays.mismatch(message, echo.array());
        if (at >= 0) {
            state.violations.add(name + ": the echo of " + message.length + " bytes differs at byte " + at
                    + " (a read that lost its choose consumed bytes, or bytes came back out of order)");
        } else {
            echoed.increment();
        }
    }

    private void checkEnd(String name, int n) {
        if (n != -1) {
            state.violations.add(name + ": after its output was shut and the echo read, a read gave " + n
                    + " instead of end of stream");
        }
    }

    /** The echo service's address. */
    SocketAddress address() {
        return address;
    }

    // ---------------------------------------------------------------- rest

    /**
     * At rest: every client stream closed, and every service connection ended within {@code limit} (the
     * service ends a connection when it reads its client's close). Returns the counts for the progress line.
     */
    String check(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (liveHandlers.get() > 0 && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
        }
        if (openClients.get() != 0) {
            state.violations.add(openClients.get() + " client streams open at rest");
        }
        if (liveHandlers.get() != 0) {
            state.violations.add(liveHandlers.get() + " echo connections still served " + limit.toMillis()
                    + " ms after the workload stopped (a client stream left open)");
        }
        return echoed.sum() + " echoes";
    }

    @Override
    public void close() {
        closing = true;
        closeQuietly(listener);
        service.shutdownNow();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // at rest or shutting down: the socket is of no further use either way
        }
    }
}
