package dev.spindle.internal.net;

import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.FailWork;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.AltImpl;
import dev.spindle.internal.select.Else;
import dev.spindle.internal.select.Pick;
import dev.spindle.internal.select.PickListener;

/**
 * The alternative of one {@link IoOp} (a socket read, write, accept or connect): the adapter between the
 * network layer's "attempt, undo, register for readiness" and the commit protocol of {@link Pick}, wrapped
 * into an {@code Alt} by {@code Bridge.alt} ({@link IoAlts}).
 *
 * <pre>
 * Implementation overview
 * =======================
 *   plain run:   attempt at once (no competitor); if not ready, run as a choose of one
 *   (an op whose last attempt drained its socket skips these first attempts: IoOp.worthAttempting)
 *   instantiate: an undoable op is attempted; a result commits the pick, or is undone when the pick was
 *                taken meanwhile. Otherwise a Waiter is registered for readiness, and a Withdraw listener
 *                deregisters it (and tells the op it was abandoned) when another alternative wins
 *   readiness:   the Waiter runs on a worker. Undoable: hold the pick (Pick.hold), attempt; nothing yet:
 *                release and register again; a result: commit the held pick. Not undoable: commit first,
 *                then attempt, and hand over the result even when it is IoOp.NOT_READY (the network layer
 *                retries as a plain job)
 * INV: an undoable op's result is either delivered by the one party that committed, or undone.
 * INV: an attempt touches the chooser's state (a read's buffer) only while the chooser cannot run: in its
 *      own plain run or instantiation, or from a Waiter that holds the pick.
 * </pre>
 */
final class IoAltImpl<A> extends AltImpl<A> {
    private final IoOp<A> op;

    IoAltImpl(IoOp<A> op) {
        this.op = op;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void doJob(Worker w, Cont<A> k) {
        if (k.fiber().cancelPending()) {
            op.abandoned(); // a connect's socket, opened by the guard that made this op, would leak
            Trampoline.fail(w, k, CancelSignal.INSTANCE);
            return;
        }
        UnsupportedOperationException refused = NetPoller.refusal(w.engine());
        if (refused != null) { // even an operation that would complete at once
            op.abandoned();
            Trampoline.fail(w, k, refused);
            return;
        }
        Object r;
        try {
            r = op.worthAttempting() ? op.attempt() : IoOp.NOT_READY;
        } catch (Throwable e) {
            Trampoline.fail(w, k, e);
            return;
        }
        if (r != IoOp.NOT_READY) {
            Trampoline.succeed(w, k, (A) r);
            return;
        }
        Pick pk = Pick.begin(w, k, this); // a choose of one, without a second attempt
        if (pk == null) {
            op.abandoned(); // cancelled meanwhile: k has been failed
        } else {
            await(w, 0, k, pk);
        }
    }

    @Override
    public void tryAlt(Worker w, int i, Cont<A> k, Else e) {
        Pick pk = e.pick;
        UnsupportedOperationException refused = NetPoller.refusal(w.engine());
        if (refused != null) {
            op.abandoned();
            pk.fail(w, refused);
            return;
        }
        if (op.undoable() && op.worthAttempting()) {
            Outcome r = Outcome.attempt(op);
            if (r.value != IoOp.NOT_READY) {
                if (pk.commitSelf(i)) {
                    pk.fireListeners(w);
                    r.deliverNow(w, k);
                } else {
                    op.undo(r.value);
                    pk.instantiated(w);
                }
                return;
            }
        }
        await(w, i, k, e);
    }

    /** Registers a waiter for readiness as alternative {@code i}, then continues instantiation with {@code e}. */
    private void await(Worker w, int i, Cont<A> k, Else e) {
        Pick pk = e.pick;
        Waiter<A> waiter = new Waiter<>(op, pk, i, k);
        try {
            op.register(waiter, w);
        } catch (Throwable t) {
            op.abandoned();
            pk.fail(w, t);
            return;
        }
        if (!pk.addListener(new Withdraw(i, op, waiter))) {
            op.deregister(waiter);
            op.abandoned();
            pk.instantiated(w);
            return;
        }
        e.tryElse(w, i + 1);
    }

    @Override
    public String toString() {
        return op.toString();
    }

    /** What an attempt gave: a value (possibly NOT_READY) or, when {@code failed}, the exception. */
    private record Outcome(Object value, boolean failed) {
        static Outcome attempt(IoOp<?> op) {
            try {
                return new Outcome(op.attempt(), false);
            } catch (Throwable e) {
                return new Outcome(e, true);
            }
        }

        @SuppressWarnings("unchecked")
        <A> void deliverNow(Worker w, Cont<A> k) {
            if (failed) {
                Trampoline.fail(w, k, (Throwable) value);
            } else {
                Trampoline.succeed(w, k, (A) value);
            }
        }

        @SuppressWarnings("unchecked")
        <A> void resume(Worker w, Pick pk, Cont<A> k) {
            if (failed) {
                pk.resume(w, new FailWork(k, (Throwable) value));
            } else {
                k.setResumeValue((A) value);
                pk.resume(w, k);
            }
        }
    }

    /** Registered for readiness; runs on a worker when the op may be ready (see the overview). */
    private static final class Waiter<A> extends Work {
        private final IoOp<A> op;
        private final Pick pick;
        private final int index;
        private final Cont<A> k;

        Waiter(IoOp<A> op, Pick pick, int index, Cont<A> k) {
            this.op = op;
            this.pick = pick;
            this.index = index;
            this.k = k;
        }

        @Override
        public void doWork(Worker w) {
            op.arrived();
            if (pick.isPicked()) {
                return; // another alternative won; its Withdraw listener has deregistered us
            }
            if (op.undoable()) {
                // Held while attempting: the chooser may run again as soon as another party picks, and an
                // attempt that lost afterwards would have written into (and taken back from) a buffer the
                // chooser's code is already using again.
                if (!pick.hold()) {
                    return;
                }
                Outcome r = Outcome.attempt(op);
                if (r.value == IoOp.NOT_READY) {
                    pick.releaseHeld();
                    reRegister(w);
                } else {
                    pick.pickHeld(index);
                    pick.fireListeners(w);
                    r.resume(w, pick, k);
                }
            } else if (Pick.commit(null, 0, pick, index) == Pick.Commit.COMMITTED) {
                pick.fireListeners(w);
                Outcome.attempt(op).resume(w, pick, k);
            }
        }

        /** Waits again; a pick decided meanwhile may have missed us, so we look once more after. */
        private void reRegister(Worker w) {
            try {
                op.register(this, w);
            } catch (Throwable e) {
                if (Pick.commit(null, 0, pick, index) == Pick.Commit.COMMITTED) {
                    pick.fireListeners(w);
                    pick.resume(w, new FailWork(k, e));
                }
                return;
            }
            if (pick.isPicked()) {
                op.deregister(this);
            }
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            w.engine().reportUncaught(e);
        }
    }

    /** Withdraws the waiter when another alternative wins (or the choose is cancelled or fails). */
    private static final class Withdraw extends PickListener {
        private final IoOp<?> op;
        private final Work waiter;

        Withdraw(int index, IoOp<?> op, Work waiter) {
            super(index, index + 1);
            this.op = op;
            this.waiter = waiter;
        }

        @Override
        protected void fire(Worker w) {
            op.deregister(waiter);
            op.abandoned();
        }
    }
}
