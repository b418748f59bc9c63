package dev.spindle.internal.select;

import dev.spindle.internal.run.Work;

/** The granting side of the tests' primitives: hand over to the oldest committed waiter, or keep. */
final class Grants {
    private Grants() {
    }

    /**
     * Under {@code queue}'s lock, takes its oldest committed waiter; if there is none, runs {@code keep} (still
     * under the lock). Outside the lock, resumes the waiter taken with {@code value}.
     */
    static void handOverOrKeep(LockedWaitQueue queue, Runnable keep, Object value) {
        queue.lock();
        Work e = queue.pollCommitted();
        if (e == null) {
            keep.run();
        }
        queue.unlock();
        if (e != null) {
            Waiter.release(null, e, value);
        }
    }
}
