package dev.spindle.test.net;

import dev.spindle.Alt;
import dev.spindle.Job;

/** A listening endpoint of a {@link Network}: {@link #accept} waits for the next connection. */
public interface Listener {
    /** {@return the next connection; one that loses a choose or is cancelled takes none} */
    Alt<Connection> accept();

    /** {@return the port this listener is bound to (the actual one when asked for port 0)} */
    int port();

    /** {@return a job that stops listening and wakes waiting acceptors} Idempotent. */
    Job<Void> close();
}
