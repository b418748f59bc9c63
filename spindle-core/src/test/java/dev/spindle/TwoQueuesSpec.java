package dev.spindle;

import java.util.ArrayDeque;

/**
 * The sequential specification of two FIFO queues a and b, shared by the Lincheck tests of
 * {@link Channel} and {@link Mailbox}: sends append, polls take the oldest or give null, and
 * {@code pollEither} takes from a first, else from b (whose values come back plus 100).
 */
public final class TwoQueuesSpec {
    private final ArrayDeque<Integer> a = new ArrayDeque<>();
    private final ArrayDeque<Integer> b = new ArrayDeque<>();

    public void sendA(int v) {
        a.add(v);
    }

    public void sendB(int v) {
        b.add(v);
    }

    public Integer pollA() {
        return a.poll();
    }

    public Integer pollB() {
        return b.poll();
    }

    public Integer pollEither() {
        if (!a.isEmpty()) {
            return a.poll();
        }
        return b.isEmpty() ? null : b.poll() + 100;
    }
}
