package dev.spindle.internal.net;

import dev.spindle.internal.run.Work;
import java.io.IOException;

/**
 * One waiting I/O operation, as the alternative that runs it sees it: try it without waiting, give back a
 * result that lost its commit, and register a waiter for readiness. This is the whole contract between
 * the socket code and the commit machinery of {@code Alt} ({@link IoAlts}), so that the socket code knows
 * nothing about picks.
 *
 * <p>Two kinds. An <em>undoable</em> operation (read, accept, connect) is attempted before its
 * alternative commits and {@link #undo undone} when the commit is lost, so a read that loses a choose
 * consumes nothing. Any other (write) commits first and is attempted after; its attempt may then find
 * nothing to do and give {@link #NOT_READY} as its value, which the caller turns into a plain retry.
 *
 * @param <A> the operation's value
 */
public interface IoOp<A> {
    /** What {@link #attempt} gives when the operation would have to wait. */
    Object NOT_READY = new Object() {
        @Override
        public String toString() {
            return "NOT_READY";
        }
    };

    /** Whether {@link #attempt} runs before the commit (and {@link #undo} after a lost one). */
    boolean undoable();

    /**
     * Whether a first {@link #attempt}, before any readiness, is worth its system call; true unless the
     * operation's last attempt drained the socket. When false the alternative registers for readiness at
     * once, which is safe because the selector is level-triggered: bytes already there are reported by the
     * next select. Must not be false while the operation could complete without the socket becoming ready
     * (bytes given back by {@link #undo}).
     */
    default boolean worthAttempting() {
        return true;
    }

    /** Tries the operation without waiting: its value, or {@link #NOT_READY}. */
    Object attempt() throws IOException;

    /**
     * Gives back what an {@link #attempt} took ({@code outcome}: its value, or the exception it threw) when
     * the alternative lost its commit, so the next operation finds it. Only for {@link #undoable} ones.
     */
    void undo(Object outcome);

    /**
     * Registers {@code waiter} to be run once (on some worker of the engine that runs {@code current}'s
     * fiber) when the operation may be ready, or when its socket closes.
     */
    void register(Work waiter, dev.spindle.internal.run.Worker current);

    /** Withdraws {@code waiter} if it is still registered. Any thread. */
    void deregister(Work waiter);

    /**
     * Called when a waiter the poller made ready starts to run, before it looks at the socket: the port may
     * stop keeping readiness for it ({@code Port.arrived}).
     */
    default void arrived() {
    }

    /**
     * Called once when the alternative was instantiated and lost (another alternative won, or the choose
     * was cancelled), or was made and never waited (its fiber's cancellation came first, or registering
     * for readiness failed): releases what only this instantiation held (a connect closes its socket).
     */
    default void abandoned() {
    }
}
