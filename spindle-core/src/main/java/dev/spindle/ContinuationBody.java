package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.Waiter;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Callable;

/**
 * The continuation backend: the body is a {@code jdk.internal.vm.Continuation} run on the scheduler's
 * workers. {@code await} runs the awaited job at once, inside the body's continuation and as part of the
 * direct fiber (as a stackless bind step would: no child fiber), with this object as the job's
 * continuation. A job that completes during that run costs no yield at all; one that waits leaves the
 * await to its completer, and the body yields. Whoever completes it, on whichever worker, queues the
 * body's next step (this object again) on the body's home worker.
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
 * <p><b>One object per body.</b> This object is the continuation's target, the continuation of every job
 * the body awaits (a body awaits one job at a time, and each job resumes its continuation exactly once)
 * and the work item of the body's next step; {@link #state} says which role a run of it as work plays.
 * {@link #resumeValue() The resume value} carries whatever is in flight: the body until it starts, each
 * awaited job's outcome, the body's result. A waiting body costs this object (40 bytes), the
 * {@code Continuation} (48) and its stack chunk (the frames from the body's entry to the yield), besides
 * its fiber.
 *
 * <p><b>A small stack chunk.</b> The chunk copies the compiled frames between the continuation's entry and
 * the yield, and a compiled frame is as large as the most values its method keeps across any call or trap,
 * wherever in the method (C2 has no callee-saved registers but rbp). So the await path is shaped for the
 * JIT: (1) the awaited job's {@code doJob} is called through a constant method handle ({@link #DO_JOB}), a
 * virtual call that C2 does not inline from a type profile, so the job's own code (a wait queue, a lock,
 * allocation) stays out of the await's compiled method; that method stays small, below C2's
 * {@code InlineSmallCode}, and is inlined into the body's frame instead of adding a frame of its own;
 * (2) {@link #run} keeps no reference across the body (the JDK's entry keeps its continuation): it finds
 * this object again afterwards as the current context ({@link DirectBody#current}, a few loads; the body
 * never leaves its thread, see below), so the frame keeps one reference less for the whole body. The await itself keeps
 * this object across the yield: a lookup there as well lets C2, once it inlines the lookup, keep the current
 * thread across the yield instead, in a larger frame. A body blocked in {@code read.await()} thus has a chunk
 * of just the entry frame (continuation entry, {@link #run}, the body and the await inlined) and
 * {@code Continuation.yield0}'s, what a bare continuation keeping one value across a yield costs
 * (DirectFootprintTest pins it).
 *
 * <p><b>No pool of idle continuations</b> (marl's {@code idleFibers}). A JDK continuation is one-shot: once
 * its runnable has returned it cannot run another, so a pooled one would have to loop, yielding at the end
 * of each body and being resumed for the next. A yield and a resume cost several times what creating and
 * running a fresh continuation that never yields does, and a fresh one allocates its stack chunk only at
 * its first yield. So each body gets a new continuation.
 *
 * <p><b>Helping while waiting.</b> An await whose job has to wait first runs, on the body's own stack, the
 * step of another body that its worker would run next anyway (the only item on the worker's stack, a body
 * of this worker whose await has completed), then yields as before unless that step completed its await.
 * In a ping-pong the partner's step is that item, and completes this body's await before it waits in turn,
 * so the helper never yields: one continuation switch per round trip (the partner's) instead of two. One
 * step only: in a ring the helped step wakes a third body, and helping that too would save no switch
 * (every body of a ring yields once per round either way), only nest the loop's work.
 *
 * <p>Bounds: one level of nesting (a helped body that waits yields, {@link Worker#helpable}); never while
 * other threads have handed the worker work, or when the loop's periodic look at the global queue is due
 * and finds work there; never under the simulator, which chooses the order itself. The helped step runs on
 * the same thread, so a body still never changes threads. The help starts where the awaited job queues the
 * body as a waiter, in the wait queues of channels, IVars, mailboxes and MVars ({@link WaitQueue#blocked}),
 * not in the await: code there, even a call through the job's call site, made the await's compiled frame,
 * which every waiting body's stack chunk copies, larger. Awaits
 * that wait elsewhere (a choose, a sleep, a join, the blocking forms of {@code dev.spindle.sync}) yield at
 * once, as before. On JDKs before 24 a held monitor pins a continuation, and a helped body that cannot
 * yield would wait on top of its helper, so helping is on only where a probe finds that monitors do not pin
 * ({@link #HELPS}; {@code -Dspindle.direct.help=false} turns it off). A native frame still pins on any JDK:
 * a helped body that awaits inside a class initializer waits on top of its helper, which cannot go on until
 * it returns, so such an await must not wait for the body that helps it.
 *
 * <p><b>The automatic yield.</b> An await whose job completes inline returns without leaving the body, so a
 * body that keeps awaiting such jobs (starting children, joining finished ones) would keep its worker from
 * the work handed to it meanwhile: every resumption of the bodies it started lands in that worker's inbox.
 * So a body may complete only so many awaits inline in one run from its worker's loop (as many as the
 * steps a stackless item takes between automatic yields, {@link Worker#spendInlineAwait}); then it yields
 * as such an item does, and its next step is queued behind the other work waiting for the worker
 * ({@link Worker#yieldBehind}).
 *
 * <p>Pinned continuations (a native frame on the body's stack, such as a class initializer; or a held
 * monitor on JDKs before 24) cannot yield: the body then waits on its worker thread, which keeps running
 * other work meanwhile as {@link Scheduler#run} does inside a job, until the resumption comes back.
 */
final class ContinuationBody<A> extends DirectBody<A> implements Runnable {
    /*
     * State machine (state; "home" is the body's worker thread, "completer" whoever completes an awaited job)
     *
     *              home: await starts                  completer, or home inside the inline run
     *   IDLE ------------------------------> INLINE ------------------------------------------> DONE
     *   DONE, RESUMING --(next await)-----/    |                                                  |
     *                                          | home: the job must wait (CAS)                    | await
     *                                          v                                                  | returns
     *                                      DETACHED --completer: queue the step--> RESUMING      | (no yield)
     *                                                                                 |  the step runs,
     *                                                                                 v  await returns
     *   IDLE, DONE, RESUMING --home: the body returns or throws--> FINISHED (terminal)
     *
     * INV: only the home thread leaves IDLE, DONE and RESUMING; only a completer leaves DETACHED; INLINE is
     *      left by exactly one CAS winner (the completer's INLINE -> DONE or the home's INLINE -> DETACHED).
     * INV: the outcome (value, failed) is written before the store of DONE or RESUMING and read after it.
     */

    /** No await in progress: the body runs, or has not started. */
    private static final byte IDLE = 0;
    /** {@code await} runs the job on the home thread; a completion now leaves the outcome for it. */
    private static final byte INLINE = 1;
    /** Completed while INLINE: {@code await} returns without yielding. */
    private static final byte DONE = 2;
    /** {@code await} gave up waiting inline and yields (or waits pinned); the completion queues a step. */
    private static final byte DETACHED = 3;
    /** Completed after DETACHED: this object is queued (or running) as the body's next step. */
    private static final byte RESUMING = 4;
    /** The body has returned or thrown. */
    private static final byte FINISHED = 5;

    /**
     * Whether a body that must wait first runs its worker's next body step on its own stack (see the class
     * comment): on unless {@code spindle.direct.help=false}, and only where a held monitor does not pin a
     * continuation (JDK 24 and later), since a helped body that cannot yield waits on top of its helper.
     */
    static final boolean HELPS = DirectBackend.YIELDS_HOLDING_MONITORS
            && Boolean.parseBoolean(System.getProperty("spindle.direct.help", "true"));

    private static final VarHandle STATE;
    /**
     * {@code job.doJob(w, k)} as (Job, Worker, Cont)void. C2 compiles a constant handle's call to a plain
     * virtual call: it inlines the target only for a receiver class it knows, or speculates on one when a
     * single job class was ever awaited there, never bimorphically from a type profile as it would
     * {@code job.doJob}. See the class comment, "A small stack chunk".
     */
    private static final MethodHandle DO_JOB;

    private final Object continuation;
    /** The worker whose thread runs every step of the body. */
    private final Worker home;
    /**
     * One of the constants above. Home thread: IDLE, DONE or RESUMING -> INLINE (before the job can see
     * this object) or FINISHED; INLINE -> DETACHED (CAS). Completer: INLINE -> DONE (CAS,
     * or a plain write on the home thread inside the inline run), DETACHED -> RESUMING (only the completer
     * changes DETACHED). The outcome ({@link #resumeValue()}, {@link #failed}) is written before DONE or RESUMING
     * and read after them.
     */
    private volatile byte state;
    /** {@link #resumeValue()} is a failure (a Throwable the awaited job or the body ended with), not a value. */
    private boolean failed;
    /** The body could not yield and waits on its thread; the resumption then only ends that wait. Home only. */
    private boolean waitingPinned;
    /** The resumption arrived while {@link #waitingPinned}. Home thread only. */
    private boolean resumedPinned;

    ContinuationBody(Callable<? extends A> body, Cont<A> k, Worker home) {
        super(k);
        this.home = home;
        setResumeValue(body);
        try {
            continuation = (Object) DirectBackend.NEW_CONTINUATION.invokeExact((Runnable) this);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot create a continuation for a direct body", e);
        }
    }

    @Override
    Engine engine() {
        return home.engine();
    }

    /** The worker whose thread runs every step of the body. */
    Worker home() {
        return home;
    }

    @Override
    public boolean boundTo(Worker w) {
        return w == home;
    }

    /**
     * The continuation's entry point: runs the body. Keeps nothing but the outcome across the body: this
     * object is found again as the current context, which it still is on this thread when the body ends.
     */
    @Override
    public void run() {
        @SuppressWarnings("unchecked")
        Callable<? extends A> body = (Callable<? extends A>) resumeValue();
        setResumeValue(null);
        Object result;
        boolean threw = false;
        try {
            result = body.call();
        } catch (Throwable e) {
            result = e;
            threw = true;
        }
        ((ContinuationBody<?>) current()).finished(result, threw);
    }

    /** The body has returned {@code result}, or thrown it. */
    private void finished(Object result, boolean threw) {
        setResumeValue(result);
        failed = threw;
        STATE.set(this, FINISHED); // home thread, no await pending: nobody else writes state now
    }

    /** Runs the body until it waits or ends, on its home worker {@code w}. */
    void step(Worker w) {
        if (waitingPinned) {
            resumedPinned = true; // the body is on this thread's stack already, below us: end its wait
            return;
        }
        DirectBody<?> previous = enter();
        try {
            DirectBackend.RUN.invokeExact(continuation);
        } catch (Throwable e) {
            if (state != FINISHED) {
                STATE.set(this, FINISHED);
                setResumeValue(e);
                failed = true;
            }
        } finally {
            exit(previous);
        }
        byte s = state;
        if (s == FINISHED) {
            Object v = resumeValue();
            boolean f = failed;
            setResumeValue(null);
            failed = false;
            @SuppressWarnings("unchecked")
            A a = f ? null : (A) v;
            deliver(w, a, f ? (Throwable) v : null);
        } else if (s != DETACHED && s != RESUMING) {
            deliver(w, null, new IllegalStateException(
                    "a direct body yielded its continuation outside Direct.await"));
        }
        // else: yielded in await; its completer queues the next step
    }

    /** Runs {@code job} inline; yields if it has to wait. */
    @Override
    <B> B await(Job<B> job) {
        if (startAwait(job)) {
            suspend();
        }
        return take();
    }

    /**
     * Runs {@code job} inline as this body's await: true when it waits, so the body must yield (DETACHED);
     * false when its outcome is stored already (DONE).
     */
    private boolean startAwait(Job<?> job) {
        if (state == INLINE) {
            // the stackless code of a job this body awaits, run inline on the body's stack, called await
            throw Direct.awaitInsideStacklessJob();
        }
        checkCancel();
        STATE.set(this, INLINE); // published to a completer on another thread by the job's own hand-off
        try {
            DO_JOB.invokeExact(job, home, (Cont<?>) this); // this thread drives home: the body runs nowhere else
        } catch (Throwable e) {
            // what escapes a job's own code fails the await, as in runAwaited; not a call of runAwaited with
            // the handle, whose compiled frame would keep one more value in every waiting body's stack chunk
            doHandle(home, e);
        }
        return state != DONE && STATE.compareAndSet(this, INLINE, DETACHED);
    }

    /**
     * Called by a primitive that has just queued {@code entry} and released its lock (after
     * {@code WaitQueue.blocked}): when the entry is a direct body's inline await, lets the body help
     * ({@link #helpWhileWaiting(Worker)}) here, not in its await, whose compiled frame every waiting body's
     * stack chunk copies. Callers return at once after it.
     */
    static void helpWhileWaiting(Worker w, Work entry) {
        if (Waiter.contOf(entry) instanceof ContinuationBody<?> body) {
            body.helpWhileWaiting(w);
        }
    }

    /**
     * Called by {@link #helpWhileWaiting(Worker, Work)} when a wait queue has just queued this body's inline
     * await on worker {@code w}, its lock released: runs the step this worker would run next, on this
     * body's stack, if it is the only work here and the step of a body of this worker whose await has
     * completed (see "Helping while waiting" above). One step only: when that step leaves this await
     * waiting (a ring, not a pair), helping more would save no switch, only nest the loop's work deeper.
     * The await then goes on as before: it yields unless its job has completed meanwhile.
     */
    void helpWhileWaiting(Worker w) {
        if (!HELPS || w != home || !(w.helpable() instanceof ContinuationBody<?> body) || body.home != w) {
            return;
        }
        byte s = body.state;
        if (s != RESUMING && s != DETACHED) {
            return; // not a step of a yielded body: leave it to the loop
        }
        w.helpWith(body);
        if (state == INLINE && w.popIfTop(this)) {
            completed(w); // the helped body completed our await by queueing us: INLINE -> DONE here
        }
    }

    /** Waits, DETACHED, until the completion has queued the next step and it ran. */
    private void suspend() {
        boolean yielded;
        try {
            yielded = (boolean) DirectBackend.YIELD.invokeExact();
        } catch (IllegalStateException pinned) {
            yielded = false;
        } catch (Throwable e) {
            yielded = false; // cannot happen: yield fails only as pinned; wait on the thread then
        }
        if (!yielded) {
            waitPinned();
        }
    }

    /** What the await that has just completed gives: the value, or the exception it throws. */
    @SuppressWarnings("unchecked")
    private <B> B take() {
        Object v = resumeValue();
        setResumeValue(null);
        if (failed) {
            failed = false;
            return outcome(fiber(), null, (Throwable) v);
        }
        return (B) v;
    }

    /** The continuation could not yield: run other work on this thread until the resumption comes. */
    private void waitPinned() {
        waitingPinned = true;
        try {
            engine().await(() -> resumedPinned);
        } finally {
            waitingPinned = false;
            resumedPinned = false;
        }
    }

    /** The awaited job succeeded with {@code b}. */
    @Override
    public void doCont(Worker w, Object b) {
        setResumeValue(b);
        completed(w);
    }

    /** The awaited job failed with {@code e}, or was cancelled. */
    @Override
    public void doHandle(Worker w, Throwable e) {
        setResumeValue(e);
        failed = true;
        completed(w);
    }

    /**
     * Run as work, only ever by a worker loop: RESUMING, the body's next step; otherwise the awaited job's
     * completer queued this continuation with its outcome stored, so complete the await. A completion
     * that finds the body DETACHED on its home worker steps it at once instead of queueing the step (the
     * loop would pop it next).
     */
    @Override
    public void doWork(Worker w) {
        if (state == RESUMING) {
            resume(w);
        } else if (w == home && state == DETACHED) {
            STATE.set(this, RESUMING); // only this completion writes state until the step runs
            resume(w);
        } else {
            completed(w);
        }
    }

    /** Runs the body's next step on its home worker (sharing may have moved this item: send it home). */
    private void resume(Worker w) {
        if (w != home) {
            home.pushInbox(this);
            return;
        }
        try {
            step(w);
        } catch (Throwable e) {
            // step() catches what the body throws; anything else is a runtime bug, not the await's failure
            w.engine().reportUncaught(e);
        }
    }

    /** The awaited job has completed (its outcome stored); {@code w} is the completing worker. */
    private void completed(Worker w) {
        if (w == home && state == INLINE) {
            if (w.spendInlineAwait()) {
                // The automatic yield (see the class comment): left INLINE, the await yields, and this item,
                // queued behind other work, resumes it; should another worker run the item first, it completes
                // the await as any completer does (INLINE -> DONE, or RESUMING and the inbox after the yield).
                w.yieldBehind(this);
            } else {
                STATE.set(this, DONE); // on the home thread while INLINE: inside the job's run in await
            }
        } else if (!STATE.compareAndSet(this, INLINE, DONE)) {
            STATE.set(this, RESUMING); // DETACHED: only this completion writes state until the step runs
            if (w == home) {
                w.push(this);
            } else {
                home.pushInbox(this);
            }
        }
    }

    @Override
    public String describe() {
        return "direct body (continuation)";
    }

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ContinuationBody.class, "state", byte.class);
            DO_JOB = MethodHandles.lookup().findVirtual(Job.class, "doJob",
                    MethodType.methodType(void.class, Worker.class, Cont.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
