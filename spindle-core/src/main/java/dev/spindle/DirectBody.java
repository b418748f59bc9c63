package dev.spindle;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Drivers;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.FailWork;
import dev.spindle.internal.run.StopCondition;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.util.concurrent.CancellationException;
import java.util.concurrent.locks.LockSupport;

/**
 * One run of a direct body: the "current direct context" that {@link Direct#await} finds while the body
 * runs (see {@link #current}), and the fiber's blocker while the body itself runs. Subclasses are the
 * backends ({@link VirtualThreadBody}: virtual thread; {@link ContinuationBody}: continuation).
 *
 * <p>An awaited job runs as part of the direct fiber (no child fiber), with a continuation of the fiber:
 * while it waits, the fiber is blocked on whatever the job waits for, exactly as stackless code would be,
 * and cancellation withdraws it the same way. While the body itself runs the fiber's blocker is this
 * context, whose {@link #removeWaiter} gives nothing back: the body sees the cancellation at its next
 * {@code await}. The direct job's continuation is resumed only when the body has ended, so its
 * {@code finally} blocks always run first.
 *
 * <p>A context is a {@link Cont} of the fiber ({@link #fiber()}) so that {@link ContinuationBody} can be the
 * continuation of each job it awaits and the work item of its own next step, with no object per await;
 * {@link VirtualThreadBody} awaits through a {@link ThreadAwait} and is never queued.
 *
 * @param <A> the body's value type
 */
abstract class DirectBody<A> extends Cont<Object> implements Blocker {
    private static final ThreadLocal<DirectBody<?>> CURRENT = new ThreadLocal<>();

    /** The direct job's continuation: resumed once, with the body's result. */
    final Cont<A> k;

    DirectBody(Cont<A> k) {
        super(k.fiber());
        this.k = k;
    }

    /** The direct fiber. */
    final FiberImpl<?> self() {
        return (FiberImpl<?>) fiber();
    }

    /** The engine the direct fiber runs on. */
    abstract Engine engine();

    /**
     * The direct body the calling thread runs, or null outside any: a field of the worker on worker
     * threads (a body never leaves its thread, so the field is only touched by that thread), a
     * thread-local on other threads (virtual threads of the fallback, drivers of single-threaded engines).
     */
    static DirectBody<?> current() {
        Worker w = Drivers.ofWorkerThread(Thread.currentThread());
        return w != null ? (DirectBody<?>) w.ownThreadSlot() : CURRENT.get();
    }

    /** Makes this the calling thread's context; returns the previous one, to give to {@link #exit}. */
    final DirectBody<?> enter() {
        Worker w = Drivers.ofWorkerThread(Thread.currentThread());
        if (w != null) {
            DirectBody<?> previous = (DirectBody<?>) w.ownThreadSlot();
            w.setOwnThreadSlot(this);
            return previous;
        }
        DirectBody<?> previous = CURRENT.get();
        CURRENT.set(this);
        return previous;
    }

    static void exit(DirectBody<?> previous) {
        Worker w = Drivers.ofWorkerThread(Thread.currentThread());
        if (w != null) {
            w.setOwnThreadSlot(previous);
        } else if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
    }

    /** {@link Direct#await} inside this body. */
    abstract <B> B await(Job<B> job);

    /** Throws at an await of a cancelled direct fiber. */
    final void checkCancel() {
        if (self().cancelPending()) {
            throw new CancellationException("the direct fiber was cancelled");
        }
    }

    /** Starts {@code job} as part of the direct fiber on worker {@code w}, completing {@code c}. */
    @SuppressWarnings("unchecked")
    static <B> void runAwaited(Worker w, Job<B> job, Cont<?> c) {
        try {
            job.doJob(w, (Cont<B>) c);
        } catch (Throwable e) {
            c.doHandle(w, e); // what escapes a job's own code fails the await, as it fails a bind step
        }
    }

    /** From a thread that is not a worker of the engine: queues {@code job} to run as in {@link #runAwaited}. */
    final <B> void submitAwaited(Job<B> job, Cont<B> c) {
        engine().pushGlobal(new Work() {
            @Override
            public void doWork(Worker w) {
                runAwaited(w, job, c);
            }

            @Override
            public void doHandle(Worker w, Throwable e) {
                c.doHandle(w, e);
            }

            @Override
            public FiberBase<?> fiber() {
                return fiber();
            }
        });
    }

    /**
     * What {@code await} gives for an awaited job that ended with {@code value} or, when not null,
     * {@code error}: the value, or the exception it throws.
     */
    @SuppressWarnings("unchecked")
    static <B> B outcome(FiberBase<?> fiber, Object value, Throwable error) {
        if (error == null) {
            return (B) value;
        }
        if (CancelSignal.is(error)) {
            throw new CancellationException(fiber.isCancelRequested()
                    ? "the direct fiber was cancelled"
                    : "the awaited job was cancelled");
        }
        throw JobSupport.rethrowable(error);
    }

    /**
     * The continuation of a job awaited by a thread that blocks until it ends: a body's virtual thread.
     * Part of the direct fiber.
     */
    static final class ThreadAwait<B> extends Cont<B> implements StopCondition {
        private final Thread waiter = Thread.currentThread();
        /** The job's failure, or null; written before {@link #done} publishes the outcome. */
        private Throwable error;
        private volatile boolean done;

        ThreadAwait(FiberBase<?> fiber) {
            super(fiber);
        }

        @Override
        public void doCont(Worker w, B b) {
            setResumeValue(b);
            completed();
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            error = e;
            completed();
        }

        private void completed() {
            done = true; // volatile write after the outcome: the waiter reads done, then the outcome
            LockSupport.unpark(waiter);
        }

        @Override
        public boolean isStopped() {
            return done;
        }

        /** Parks until completed; interrupts do not end the wait (cancellation does, through the fiber). */
        void park() {
            while (!done) {
                LockSupport.park(this);
            }
        }

        /** What {@code await} gives: the value, or the exception it throws. */
        B outcome() {
            return DirectBody.outcome(fiber(), resumeValue(), error);
        }
    }

    /**
     * Resumes the direct fiber with the body's result: cancelled if cancellation is pending, whatever the
     * body ended with. {@code w} is the caller's worker, or null on a foreign thread.
     */
    final void deliver(Worker w, A value, Throwable error) {
        FiberImpl<?> self = self();
        if (w == null) {
            Engine engine = engine();
            if (self.cancelPending()) {
                engine.enqueue(new FailWork(k, CancelSignal.INSTANCE));
            } else if (error != null) {
                engine.enqueue(new FailWork(k, error));
            } else {
                k.setResumeValue(value);
                engine.enqueue(k);
            }
        } else if (self.cancelPending()) {
            Trampoline.fail(w, k, CancelSignal.INSTANCE);
        } else if (error != null) {
            Trampoline.fail(w, k, error);
        } else {
            Trampoline.succeed(w, k, value);
        }
    }

    /** While the body runs the fiber is not waiting: nothing to report (an await reports its own blocker). */
    @Override
    public final boolean waitsForChildren() {
        return true;
    }

    @Override
    public final Cont<?> removeWaiter(FiberBase<?> fiber) {
        return null; // the body ends by itself; see the class comment
    }
}
