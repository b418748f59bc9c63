package dev.spindle.test.net;

import dev.spindle.Alt;
import dev.spindle.Job;

/** A listening endpoint of a {@link Network}: {@link #accept} waits for the next connection. */
public interface Listener {
    /** The next connection; one that loses a choose or is cancelled takes none. */
    Alt<Connection> accept();

    /** The port this listener is bound to (the actual one when asked for port 0). */
    int port();

    /** Stops listening and wakes waiting acceptors. Idempotent. */
    Job<Void> close();
}
