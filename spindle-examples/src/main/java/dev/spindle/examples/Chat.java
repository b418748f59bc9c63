package dev.spindle.examples;


import dev.spindle.Job;
import dev.spindle.Mailbox;
import dev.spindle.test.net.Connection;
import dev.spindle.test.net.Listener;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A line-based chat server written against {@link dev.spindle.test.net.Network}, so the same code serves
 * real sockets and a simulated network. Each connection is a fiber (plus a writer fiber of its own); a hub
 * fiber owns the member list and broadcasts through each member's {@link Mailbox}. The first line a client
 * sends is its name; every later line goes to the others as {@code name: line}. Cancelling the server's
 * fiber stops everything: the hub and the sessions are its children.
 */
public final class Chat {
    private Chat() {
    }

    /** What sessions tell the hub. */
    private sealed interface Event {
    }

    private record Join(String name, Mailbox<String> outbox) implements Event {
    }

    private record Say(String name, String line) implements Event {
    }

    private record Leave(String name) implements Event {
    }

    /** Serves chat on {@code listener} until cancelled. */
    public static Job<Void> server(Listener listener) {
        Mailbox<Event> hub = new Mailbox<>("chat hub");
        return hub(hub, new LinkedHashMap<>()).start().then(accept(listener, hub));
    }

    private static Job<Void> accept(Listener listener, Mailbox<Event> hub) {
        return listener.accept().flatMap(c -> session(c, hub).start()).then(Job.defer(() -> accept(listener, hub)));
    }

    /** The hub: the only fiber that touches the member list, so it needs no lock. */
    private static Job<Void> hub(Mailbox<Event> hub, Map<String, Mailbox<String>> members) {
        return hub.take().flatMap(e -> {
            Job<Void> act = switch (e) {
                case Join j -> {
                    members.put(j.name(), j.outbox());
                    yield j.outbox().send("welcome " + j.name() + ", " + members.size() + " here\n");
                }
                case Say s -> broadcast(members, s.name(), s.name() + ": " + s.line() + "\n");
                case Leave l -> {
                    members.remove(l.name());
                    yield broadcast(members, l.name(), l.name() + " left\n");
                }
            };
            return act.then(Job.defer(() -> hub(hub, members)));
        });
    }

    private static Job<Void> broadcast(Map<String, Mailbox<String>> members, String from, String text) {
        Job<Void> all = Job.unit();
        for (Map.Entry<String, Mailbox<String>> m : members.entrySet()) {
            if (!m.getKey().equals(from)) {
                all = all.then(m.getValue().send(text));
            }
        }
        return all;
    }

    /** One connection: a name, then lines until end of stream. */
    private static Job<Void> session(Connection c, Mailbox<Event> hub) {
        Lines in = new Lines(c);
        Mailbox<String> outbox = new Mailbox<>("chat outbox");
        return in.next().flatMap(name -> name.isEmpty() ? Job.unit()
                : writer(c, outbox).start().flatMap(writer ->
                        hub.send(new Join(name.get(), outbox))
                                .then(relay(in, hub, name.get()))
                                .then(hub.send(new Leave(name.get())))
                                .ensure(writer.cancel())))
                .ensure(c.close());
    }

    private static Job<Void> relay(Lines in, Mailbox<Event> hub, String name) {
        return in.next().flatMap(line -> line.isEmpty() ? Job.unit()
                : hub.send(new Say(name, line.get())).then(Job.defer(() -> relay(in, hub, name))));
    }

    private static Job<Void> writer(Connection c, Mailbox<String> outbox) {
        return outbox.take().flatMap(text -> c.writeAll(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8))))
                .then(Job.defer(() -> writer(c, outbox)));
    }

    /** A client's side of a session, for the demo and the tests: sends a line. */
    public static Job<Void> say(Connection c, String line) {
        return c.writeAll(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
    }

    /** Reads lines ending in '\n' from a connection, keeping the bytes after the last one. */
    public static final class Lines {
        private final Connection c;
        private final ByteBuffer buf = ByteBuffer.allocate(4096);

        /** Lines from {@code c}. */
        public Lines(Connection c) {
            this.c = c;
        }

        /** The next line without its '\n', or empty at end of stream. */
        public Job<Optional<String>> next() {
            return Job.defer(() -> {
                for (int i = 0; i < buf.position(); i++) {
                    if (buf.get(i) == '\n') {
                        String line = new String(buf.array(), 0, i, StandardCharsets.UTF_8);
                        buf.flip().position(i + 1);
                        buf.compact();
                        return Job.result(Optional.of(line));
                    }
                }
                if (!buf.hasRemaining()) {
                    return Job.failure(new java.io.IOException("line longer than " + buf.capacity() + " bytes"));
                }
                return c.read(buf).flatMap(n -> n < 0 ? Job.result(Optional.<String>empty()) : next());
            });
        }
    }

}
