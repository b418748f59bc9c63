package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Strand;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;

/**
 * The continuation backend: the body is a {@code jdk.internal.vm.Continuation} run on the scheduler's
 * workers. {@code await} records the awaited job and yields; back on the worker, {@link #step} runs the job
 * as part of the direct fiber itself (as a stackless bind step would: no child fiber), with an
 * {@link AwaitCont} of the direct fiber as its continuation. Whoever completes that continuation, on
 * whichever worker, queues the body's next step on the body's home worker. Running the job only after the
 * yield means no completion can race with the yield.
 *
 * <p>Cancellation therefore reaches an awaited job exactly as it reaches stackless code of the fiber: a
 * blocked job is withdrawn through the fiber's blocker and fails with the cancel signal, which the body
 * sees as a {@link java.util.concurrent.CancellationException}; finalizers inside the job run first.
 *
 * <p><b>One thread per body.</b> A body always resumes on the worker (so the thread) it started on: when the
 * awaited job completes on another worker, the resumption is handed to the home worker's inbox. Compiled
 * code may keep {@code Thread.currentThread()} in a register across the yield (HotSpot assumes a frame's
 * current thread does not change inside a method, which holds for virtual threads but not for a raw
 * continuation moved between carriers); a body moved to another thread would then read the old worker's
 * thread-locals, Spindle's own context lookup included. marl's fibers are tied to their worker the same way.
 * On a single-threaded scheduler the home worker is the only one; its driving thread should stay the same
 * while bodies wait (a body resumed by another driving thread is not supported).
 *
 * <p>Pinned continuations (a native frame on the body's stack, such as a class initializer; or a held
 * monitor on JDKs before 24) cannot yield: {@code await} then runs the job as a child fiber and blocks the
 * worker thread, which keeps running other work meanwhile as {@link Scheduler#run} does inside a job, until
 * the child ends.
 */
final class DirectCont<A> extends DirectContext<A> implements Runnable {
    private final Object continuation;
    /** The worker whose thread runs every step of the body. */
    private final Worker home;
    /** The work item that runs the body's next step; queued once per completed await. */
    private final Work resume = new ResumeStep(this);
    /** The job the body yielded for, and its continuation; handed from the body to {@link #step}. */
    private Job<?> pendingJob;
    private AwaitCont<?> pendingCont;
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

    /** Runs the body until its next await or its end, on worker {@code w} (the home worker). */
    void step(Worker w) {
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
        Job<?> job = pendingJob;
        if (job != null) {
            AwaitCont<?> c = pendingCont;
            pendingJob = null;
            pendingCont = null;
            runAwaited(w, job, c);
        } else if (finished) {
            A v = value;
            Throwable e = error;
            value = null;
            error = null;
            deliver(w, v, e);
        } else {
            deliver(w, null, new IllegalStateException(
                    "a direct body yielded its continuation outside Direct.await"));
        }
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
        YieldedAwait<B> c = new YieldedAwait<>(this);
        pendingJob = job;
        pendingCont = c;
        boolean yielded;
        try {
            yielded = (boolean) DirectBackend.YIELD.invoke();
        } catch (IllegalStateException pinned) {
            yielded = false;
        } catch (RuntimeException | Error e) {
            pendingJob = null;
            pendingCont = null;
            throw e;
        } catch (Throwable e) {
            pendingJob = null;
            pendingCont = null;
            throw new IllegalStateException("Direct.await could not yield", e);
        }
        if (!yielded || pendingJob != null) {
            pendingJob = null;
            pendingCont = null;
            return awaitPinned(job);
        }
        return c.outcome();
    }

    /** The continuation could not yield: wait on this worker thread, running other work meanwhile. */
    private <B> B awaitPinned(Job<B> job) {
        ThreadAwait<B> c = new ThreadAwait<>(self);
        Worker w = engine.currentWorker();
        if (w == null) {
            submitAwaited(job, c);
            c.park();
        } else {
            runAwaited(w, job, c);
            engine.await(c);
        }
        return c.outcome();
    }

    @Override
    public String describe() {
        return "direct body (continuation)";
    }

    /** The awaited job's continuation when the body yielded: queues the body's next step at home. */
    private static final class YieldedAwait<B> extends AwaitCont<B> {
        private final DirectCont<?> run;

        YieldedAwait(DirectCont<?> run) {
            super(run.self);
            this.run = run;
        }

        @Override
        void completed(Worker w) {
            run.resumeFrom(w);
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
