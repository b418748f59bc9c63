package dev.spindle.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Alt;
import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/** Helpers of the socket tests: loopback addresses, schedulers, and reading exact byte counts. */
final class NetFixture {
    /** What {@link #readOrTimeout} gives when the peer sent nothing and did not close in time. */
    static final int TIMED_OUT = -2;
    /** Longest wait of {@link #readOrTimeout}: a peer that leaked its stream never sends end of stream. */
    private static final Duration EOF_WITHIN = Duration.ofSeconds(10);

    private NetFixture() {
    }

    /** Loopback, any free port. */
    static InetSocketAddress loopback() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    /** Runs {@code body} on a new scheduler of {@code workers} worker threads, then closes it. */
    static <A> A run(int workers, Job<A> body) {
        try (Scheduler s = Scheduler.builder().name("net-test-" + workers).workers(workers).build()) {
            return s.run(body);
        }
    }

    /**
     * Connects to {@code l}, accepts the connection, runs {@code body} with the client's end and the server's,
     * then closes both however it ended.
     */
    static <A> Job<A> connected(TcpListener l, BiFunction<TcpStream, TcpStream, Job<A>> body) {
        return TcpStream.connect(l.localAddress()).flatMap(c -> l.accept().flatMap(s ->
                body.apply(c, s).ensure(Job.run(() -> {
                    close(s);
                    close(c);
                }))));
    }

    /** Asserts that {@code o} is a failure with an error of {@code type}. */
    static void assertFailedWith(Outcome<?> o, Class<? extends Throwable> type) {
        assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error()).isInstanceOf(type));
    }

    /** Spins until one fiber waits on {@code port} (see {@link #awaitTrue}). */
    static void awaitOneWaiting(dev.spindle.internal.net.Port port, String what) {
        awaitTrue(() -> port.toString().contains("1 waiting"), what);
    }

    /** A job that reads exactly {@code n} bytes (or fails at end of stream) and gives them as a string. */
    static Job<String> readExactly(TcpStream s, int n) {
        ByteBuffer buf = ByteBuffer.allocate(n);
        return fill(s, buf).map(v -> new String(buf.array(), 0, n, StandardCharsets.UTF_8));
    }

    /** Reads until {@code buf} is full. */
    static Job<Void> fill(TcpStream s, ByteBuffer buf) {
        return buf.hasRemaining()
                ? s.read(buf).flatMap(k -> {
                    if (k < 0) {
                        return Job.failure(new IOException("end of stream after " + buf.position() + " bytes"));
                    }
                    return fill(s, buf);
                })
                : Job.unit();
    }

    /** One read of up to 8 bytes: its count, -1 at end of stream, or {@link #TIMED_OUT}. */
    static Job<Integer> readOrTimeout(TcpStream s) {
        return Alt.choose(s.read(ByteBuffer.allocate(8)), Alt.after(EOF_WITHIN).wrap(v -> TIMED_OUT));
    }

    static ByteBuffer bytes(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    /** A job that echoes everything {@code s} reads until end of stream, then closes it. */
    static Job<Void> echo(TcpStream s) {
        ByteBuffer buf = ByteBuffer.allocate(4096);
        return echoLoop(s, buf).ensure(Job.run(() -> close(s)));
    }

    private static Job<Void> echoLoop(TcpStream s, ByteBuffer buf) {
        buf.clear();
        return s.read(buf).flatMap(n -> {
            if (n < 0) {
                return Job.unit();
            }
            buf.flip();
            return s.writeAll(buf).flatMap(v -> echoLoop(s, buf));
        });
    }

    /** An accept loop that starts {@code handler} per connection as a child fiber, until cancelled. */
    static Job<Void> serve(TcpListener l, Function<TcpStream, Job<Void>> handler) {
        return l.accept().flatMap(s -> handler.apply(s).start().then(serve(l, handler)));
    }

    static void close(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Spins on the test thread until {@code condition} holds, failing after 30 s. */
    static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
        }
    }

    /**
     * A fiber that keeps its worker busy: it yields until {@code done} holds or it has yielded {@code max}
     * times, counting in {@code spins}, and gives the count. It never reaches an idle worker's blocking
     * select, so what it waits for can only come through the busy worker's looks at the poller.
     */
    static Job<Long> spin(BooleanSupplier done, AtomicLong spins, long max) {
        return Job.yieldNow().flatMap(v -> {
            long n = spins.incrementAndGet();
            return done.getAsBoolean() || n >= max ? Job.result(n) : spin(done, spins, max);
        });
    }
}
