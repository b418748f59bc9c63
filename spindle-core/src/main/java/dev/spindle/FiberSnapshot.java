package dev.spindle;

import java.util.List;
import java.util.Objects;

/**
 * One live fiber in a {@link FiberDump}: what {@link Scheduler#dump()} saw of it.
 *
 * <p>A dump is taken while the fibers run, without stopping them: each entry is consistent in itself, but
 * two entries may have been read a few microseconds apart. What a fiber is blocked on is what it last
 * recorded when it began to wait: a fiber woken a moment ago and still waiting in a run queue shows that
 * wait until it runs again.
 *
 * @param id              the fiber's number, as in its {@code toString()} ({@code fiber-<id>}): its identity
 *                        hash, stable for its life and distinct among live fibers but for rare collisions
 * @param name            the name given with {@link Job#named(String)}, or null
 * @param state           what it does now
 * @param blockedOn       what it waits on ({@code IVar "b" (empty)}, {@code timer due in 5 ms}, {@code join of
 *                        fiber-12 "reader"}) when {@link State#BLOCKED} or {@link State#SLEEPING}, else null
 * @param worker          the thread of the worker running it when {@link State#RUNNING}, else null
 * @param parent          the id of the fiber that started it, or -1 for a root (started from outside a
 *                        fiber, or detached)
 * @param children        the ids of its live children (the cancellation tree), newest first
 * @param cancelRequested whether its cancellation has been requested
 */
public record FiberSnapshot(long id, String name, State state, String blockedOn, String worker, long parent,
                            List<Long> children, boolean cancelRequested) {
    /** What a fiber does at the moment of the dump. */
    public enum State {
        /** Its code runs on a worker now. */
        RUNNING,
        /** Ready to run, waiting for a worker: not started yet, or queued after a yield or a wake-up. */
        RUNNABLE,
        /** Waiting on a primitive (a join, an IVar, a channel, a mutex...): see {@code blockedOn}. */
        BLOCKED,
        /** Waiting for a timer: {@code Job.sleep} or a timeout. */
        SLEEPING,
        /** Its own job has ended; it stays in the tree until its live children have finished. */
        FINISHING
    }

    /** Checks the arguments and copies the children. */
    public FiberSnapshot {
        Objects.requireNonNull(state, "state");
        children = List.copyOf(children);
    }
}
