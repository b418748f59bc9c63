package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Worker;
import java.util.concurrent.Callable;

/**
 * The continuation backend: the body is a {@code jdk.internal.vm.Continuation} run on the scheduler's
 * workers. {@code await} records the awaited job as a child fiber and yields; back on the worker,
 * {@link #step} starts the child with a joiner that runs the next step when it has finished, on whichever
 * worker finishes it. Starting the child only after the yield means no resume can race with it.
 *
 * <p><b>One thread per body.</b> A body always resumes on the worker (so the thread) it started on: when the
 * awaited child finishes on another worker, the resumption is handed to the home worker's inbox. Compiled
 * code may keep {@code Thread.currentThread()} in a register across the yield (HotSpot assumes a frame's
 * current thread does not change inside a method, which holds for virtual threads but not for a raw
 * continuation moved between carriers); a body moved to another thread would then read the old worker's
 * thread-locals, Spindle's own context lookup included. marl's fibers are tied to their worker the same way.
 * On a single-threaded scheduler the home worker is the only one; its driving thread should stay the same
 * while bodies wait (a body resumed by another driving thread is not supported).
 *
 * <p>Pinned continuations (a native frame on the body's stack, such as a class initializer; or a held
 * monitor on JDKs before 24) cannot yield: {@code await} then blocks the worker thread, which keeps
 * running other work meanwhile as {@link Scheduler#run} does inside a job, until the awaited job ends.
 */
final class DirectCont<A> extends DirectContext<A> implements Runnable {
    private final Object continuation;
    /** The worker whose thread runs every step of the body. */
    private final Worker home;
    /** The child the body yielded for; handed from the body to {@link #step} on the same thread. */
    private FiberCore<?> pendingChild;
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

    /** Runs the body until its next await or its end, on worker {@code w}. */
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
        FiberCore<?> child = pendingChild;
        if (child != null) {
            pendingChild = null;
            launch(w, child, new Resume<>(this));
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

    private void launch(Worker w, FiberCore<?> child, Callback<?> joiner) {
        child.tryAddJoiner(joiner); // before the child can run: always succeeds
        engine.fiberStarted(w);
        self.addChild(w, child); // cancels the child at once if the direct fiber is being cancelled
        w.push(child);
    }

    @Override
    <B> B await(Job<B> job) {
        checkCancel();
        FiberCore<B> child = newChild(job);
        pendingChild = child;
        boolean yielded;
        try {
            yielded = (boolean) DirectBackend.YIELD.invoke();
        } catch (IllegalStateException pinned) {
            yielded = false;
        } catch (RuntimeException | Error e) {
            pendingChild = null;
            throw e;
        } catch (Throwable e) {
            pendingChild = null;
            throw new IllegalStateException("Direct.await could not yield", e);
        }
        if (!yielded || pendingChild != null) {
            pendingChild = null;
            return awaitPinned(child);
        }
        return outcomeOf(child);
    }

    /** The continuation could not yield: wait on this worker thread, running other work meanwhile. */
    private <B> B awaitPinned(FiberCore<B> child) {
        Worker w = engine.currentWorker();
        DirectWake<B> wake = new DirectWake<>();
        if (w == null) {
            child.tryAddJoiner(wake);
            engine.externalFiberStarted();
            self.addChild(null, child);
            engine.pushGlobal(child);
            wake.await();
        } else {
            launch(w, child, wake);
            engine.await(wake);
        }
        return outcomeOf(child);
    }

    @Override
    public String describe() {
        return "direct body (continuation)";
    }

    /** Runs the body's next step once the child it awaits has finished. */
    private static final class Resume<A> extends Callback<Object> {
        private final DirectCont<A> run;

        Resume(DirectCont<A> run) {
            this.run = run;
        }

        /** On another worker (the child finished there, or sharing moved this item): hand it home. */
        @Override
        void onDone(Worker w) {
            if (w == run.home) {
                run.step(w);
            } else {
                run.home.pushInbox(this);
            }
        }
    }
}
