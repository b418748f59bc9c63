package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Strand;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Callable;

/**
 * The continuation backend: the body is a {@code jdk.internal.vm.Continuation} run on the scheduler's
 * workers. {@code await} runs the awaited job at once, inside the body's continuation and as part of the
 * direct fiber (as a stackless bind step would: no child fiber), with an {@link Await} of the direct fiber
 * as its continuation. A job that completes during that run costs no yield at all; one that waits leaves
 * the await to its completer, and the body yields. Whoever completes it, on whichever worker, queues the
 * body's next step on the body's home worker.
 *
 * <p>Cancellation therefore reaches an awaited job exactly as it reaches stackless code of the fiber: a
 * blocked job is withdrawn through the fiber's blocker and fails with the cancel signal, which the body
 * sees as a {@link java.util.concurrent.CancellationException}; finalizers inside the job run first.
 *
 * <p><b>One thread per body.</b> A body always runs on the worker (so the thread) it started on: when the
 * awaited job completes on another worker, the resumption is handed to the home worker's inbox. Compiled
 * code may keep {@code Thread.currentThread()} in a register across the yield (HotSpot assumes a frame's
 * current thread does not change inside a method, which holds for virtual threads but not for a raw
 * continuation moved between carriers); a body moved to another thread would then read the old worker's
 * thread-locals, Spindle's own context lookup included. marl's fibers are tied to their worker the same way.
 * On a single-threaded scheduler the home worker is the only one; its driving thread should stay the same
 * while bodies wait (a body resumed by another driving thread is not supported). Affinity is also what
 * makes the inline run safe: the resumption can only run on this thread, so never before the yield.
 *
 * <p><b>No pool of idle continuations</b> (marl's {@code idleFibers}). A JDK continuation is one-shot: once
 * its runnable has returned it cannot run another, so a pooled one would have to loop, yielding at the end
 * of each body and being resumed for the next. A yield and a resume cost about 100 ns on a 2-core EPYC
 * (bare {@code Continuation.yield}/{@code run} loop), creating and running a fresh continuation that never
 * yields about 20-25 ns; and a fresh one allocates its stack chunk only at its first yield. So each body
 * gets a new continuation.
 *
 * <p>Pinned continuations (a native frame on the body's stack, such as a class initializer; or a held
 * monitor on JDKs before 24) cannot yield: the body then waits on its worker thread, which keeps running
 * other work meanwhile as {@link Scheduler#run} does inside a job, until the resumption comes back.
 */
final class DirectCont<A> extends DirectContext<A> implements Runnable {
    private final Object continuation;
    /** The worker whose thread runs every step of the body. */
    private final Worker home;
    /** The work item that runs the body's next step; queued once per await that had to wait. */
    private final Work resume = new ResumeStep(this);
    /** The body is inside {@code await}, about to yield (a yield anywhere else is a bug). Home thread only. */
    private boolean yielding;
    /** The body could not yield and waits on its thread; the resumption then only ends that wait. Home only. */
    private boolean waitingPinned;
    /** The resumption arrived while {@link #waitingPinned}. Home thread only. */
    private boolean resumedPinned;
    private boolean finished;
    private A value;
    private Throwable error;

    DirectCont(Callable<? extends A> body, Cont<A> k, Engine engine, Worker home) {
        super(body, k, engine);
        this.home = home;
        try {
            continuation = DirectBackend.NEW_CONTINUATION.invoke((Runnable) this);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot create a continuation for a direct body", e);
        }
    }

    /** The continuation's entry point: runs the body. */
    @Override
    public void run() {
        try {
            value = body.call();
        } catch (Throwable e) {
            error = e;
        } finally {
            finished = true;
        }
    }

    /** Runs the body until it waits or ends, on its home worker {@code w}. */
    void step(Worker w) {
        if (waitingPinned) {
            resumedPinned = true; // the body is on this thread's stack already, below us: end its wait
            return;
        }
        DirectContext<?> previous = enter();
        try {
            DirectBackend.RUN.invoke(continuation);
        } catch (Throwable e) {
            if (!finished) {
                finished = true;
                error = e;
            }
        } finally {
            exit(previous);
        }
        if (finished) {
            A v = value;
            Throwable e = error;
            value = null;
            error = null;
            deliver(w, v, e);
        } else if (!yielding) {
            deliver(w, null, new IllegalStateException(
                    "a direct body yielded its continuation outside Direct.await"));
        }
        // else: yielded in await; its completer queues the next step
    }

    /** Queues the body's next step on its home worker; {@code w} is the completing worker. */
    void resumeFrom(Worker w) {
        if (w == home) {
            w.push(resume);
        } else {
            home.pushInbox(resume);
        }
    }

    @Override
    <B> B await(Job<B> job) {
        checkCancel();
        Await<B> c = new Await<>(this);
        runAwaited(home, job, c); // this thread drives home: the body runs nowhere else
        if (c.detach()) {
            yielding = true;
            boolean yielded;
            try {
                yielded = (boolean) DirectBackend.YIELD.invoke();
            } catch (IllegalStateException pinned) {
                yielded = false;
            } catch (Throwable e) {
                yielded = false; // cannot happen: yield fails only as pinned; wait on the thread then
            } finally {
                yielding = false;
            }
            if (!yielded) {
                waitPinned();
            }
        }
        return c.outcome();
    }

    /** The continuation could not yield: run other work on this thread until the resumption comes. */
    private void waitPinned() {
        waitingPinned = true;
        try {
            engine.await(() -> resumedPinned);
        } finally {
            waitingPinned = false;
            resumedPinned = false;
        }
    }

    @Override
    public String describe() {
        return "direct body (continuation)";
    }

    /**
     * The awaited job's continuation. INLINE while the job runs inside {@code await}; a completion then
     * (on this thread, or by another thread that wins the CAS) leaves the result for {@code await} to take
     * without yielding. DETACHED once {@code await} gave up waiting inline: the completion queues the body's
     * next step. Exactly one of the two happens.
     */
    private static final class Await<B> extends AwaitCont<B> {
        private static final int INLINE = 0;
        private static final int DONE = 1;
        private static final int DETACHED = 2;
        private static final VarHandle STATE;

        private final DirectCont<?> run;
        private volatile int state;

        Await(DirectCont<?> run) {
            super(run.self);
            this.run = run;
        }

        @Override
        void completed(Worker w) {
            if (w == run.home && state == INLINE) {
                state = DONE; // on the home thread while INLINE: inside the job's run in await
            } else if (!STATE.compareAndSet(this, INLINE, DONE)) {
                run.resumeFrom(w); // DETACHED
            }
        }

        /** After the inline run: true when the body must wait (the completer resumes it), false if done. */
        boolean detach() {
            return state != DONE && STATE.compareAndSet(this, INLINE, DETACHED);
        }

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Await.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /** Runs the body's next step, on its home worker (sharing may have moved this item: send it home). */
    private static final class ResumeStep extends Work {
        private final DirectCont<?> run;

        ResumeStep(DirectCont<?> run) {
            this.run = run;
        }

        @Override
        public void doWork(Worker w) {
            if (w == run.home) {
                run.step(w);
            } else {
                run.home.pushInbox(this);
            }
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            // step() catches what the body throws; anything else is a runtime bug
            w.engine().reportUncaught(e);
        }

        @Override
        public Strand<?> owner() {
            return run.self;
        }
    }
}
