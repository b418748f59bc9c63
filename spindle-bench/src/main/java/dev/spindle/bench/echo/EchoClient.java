package dev.spindle.bench.echo;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;

/**
 * The echo client, the same for every server: {@code EchoClient <port> <connections> <messageBytes>
 * <warmupSeconds> <seconds>}. Each connection is a virtual thread with a blocking socket that sends a
 * message, waits for its echo, checks it and records the round trip. Prints {@code MEASURING} and
 * {@code MEASURED} where the measured window opens and closes (so that the runner can read CPU times there),
 * then one line: {@code RESULT msgs_per_s=... p50_us=... p99_us=... messages=...}.
 */
public final class EchoClient {
    private EchoClient() {
    }

    /** Runs the client with the arguments of the class comment and prints its RESULT line. */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int connections = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        long warmupNanos = (long) (Double.parseDouble(args[3]) * 1e9);
        long runNanos = (long) (Double.parseDouble(args[4]) * 1e9);
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);

        List<SocketChannel> channels = new ArrayList<>(connections);
        for (int i = 0; i < connections; i++) {
            SocketChannel ch = SocketChannel.open(address);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channels.add(ch);
        }
        AtomicBoolean recording = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        Histogram[] histograms = new Histogram[connections];
        long[] counts = new long[connections];
        CountDownLatch done = new CountDownLatch(connections);
        for (int i = 0; i < connections; i++) {
            int id = i;
            histograms[i] = new Histogram(3_600_000_000L, 3);
            Thread.ofVirtual().start(() -> {
                try {
                    counts[id] = loop(channels.get(id), id, size, recording, stop, histograms[id]);
                } catch (IOException e) {
                    e.printStackTrace();
                    counts[id] = -1;
                } finally {
                    done.countDown();
                }
            });
        }
        Thread.sleep(warmupNanos / 1_000_000);
        recording.set(true);
        long start = System.nanoTime();
        System.out.println("MEASURING");
        Thread.sleep(runNanos / 1_000_000);
        recording.set(false);
        long elapsed = System.nanoTime() - start;
        System.out.println("MEASURED");
        stop.set(true);
        done.await();
        for (SocketChannel ch : channels) {
            ch.close();
        }
        Histogram all = new Histogram(3_600_000_000L, 3);
        long messages = 0;
        for (int i = 0; i < connections; i++) {
            if (counts[i] < 0) {
                throw new IllegalStateException("connection " + i + " failed");
            }
            all.add(histograms[i]);
        }
        messages = all.getTotalCount();
        System.out.printf("RESULT msgs_per_s=%.0f p50_us=%.1f p99_us=%.1f messages=%d%n",
                messages / (elapsed / 1e9), all.getValueAtPercentile(50) / 1e3, all.getValueAtPercentile(99) / 1e3,
                messages);
    }

    /** One connection's loop; records round trips while {@code recording}. Returns the messages sent. */
    private static long loop(SocketChannel ch, int id, int size, AtomicBoolean recording, AtomicBoolean stop,
                             Histogram h) throws IOException {
        ByteBuffer out = ByteBuffer.allocateDirect(size);
        ByteBuffer in = ByteBuffer.allocateDirect(size);
        long n = 0;
        while (!stop.get()) {
            out.clear();
            out.putLong(0, ((long) id << 32) | (n & 0xffffffffL));
            long t0 = System.nanoTime();
            while (out.hasRemaining()) {
                ch.write(out);
            }
            in.clear();
            while (in.hasRemaining()) {
                if (ch.read(in) < 0) {
                    throw new IOException("the server closed connection " + id);
                }
            }
            long rtt = System.nanoTime() - t0;
            if (in.getLong(0) != (((long) id << 32) | (n & 0xffffffffL))) {
                throw new IOException("connection " + id + ": wrong echo for message " + n);
            }
            if (recording.get()) {
                h.recordValue(rtt);
            }
            n++;
        }
        return n;
    }
}
