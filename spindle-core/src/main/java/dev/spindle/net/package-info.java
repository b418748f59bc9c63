/**
 * Network I/O for fibers: TCP (and Unix-domain) streams and listeners whose waiting operations are
 * {@link dev.spindle.Alt}s, driven by a readiness poller that the scheduler's own workers run.
 *
 * <p>A fiber that waits for a socket holds no thread. Every operation that may wait is an alternative, so
 * {@code Alt.choose(stream.read(buffer), Alt.after(timeout))} bounds a read; a read or accept that loses a
 * choose, or is cancelled, consumes nothing and leaves the socket usable. Each also has a
 * {@code ...Blocking} form for direct-style bodies, which suspends the fiber and never its worker.
 *
 * <p>Sockets belong to no scheduler: a listener or stream may be used by one scheduler, then by another
 * (a test's, say). Only the fibers of one scheduler may wait on a socket at a time; a fiber of a second
 * scheduler, still open, that would wait while they do fails with {@link IllegalStateException}.
 */
package dev.spindle.net;
