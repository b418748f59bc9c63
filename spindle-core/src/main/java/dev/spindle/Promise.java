package dev.spindle;

import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.Else;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.CancellationException;

/**
 * A memoised job: the job runs at most once, started by the first {@link #read}, and its outcome is
 * shared by every reader, past and future.
 *
 * <pre>{@code
 * Promise<Config> config = Promise.of(loadConfigOverNetwork());   // nothing runs yet
 * Job<String> a = config.read().map(Config::user);                // the first read starts the load
 * Job<Integer> b = config.read().map(Config::port);               // later reads share its outcome
 * }</pre>
 *
 * <p>The job runs as its own fiber, detached from the readers: cancelling a reader stops only that
 * reader's wait, never the shared computation. A failure of the job is seen by every reader; if the job's
 * fiber is cancelled (by {@link Scheduler#shutdownNow()}), readers fail with {@link CancellationException}.
 *
 * @implNote Before the job finishes, reads wait on an internal {@link IVar}; afterwards a read is one
 *     volatile read. Starting costs one compare-and-set and one fiber.
 * @param <A> the type of the value
 */
public final class Promise<A> {
    /** The job, until the first read takes it (CAS to null); then null. */
    private volatile Job<A> job;
    /** The shared outcome. */
    private final IVar<A> result = new IVar<>("promise");
    /** The one read alternative of this promise. */
    private final Read read = new Read();

    private Promise(Job<A> job) {
        JOB.set(this, job); // plain: publishing the promise orders it; a volatile store would be a fence
    }

    /**
     * {@return a promise of {@code job}'s outcome; {@code job} starts on the first read}
     *
     * @param <A> the type of the job's value
     * @param job the job whose outcome the promise gives
     */
    public static <A> Promise<A> of(Job<A> job) {
        return new Promise<>(Objects.requireNonNull(job, "job"));
    }

    /**
     * {@return an alternative that gives the job's value (starting the job if nobody has) or fails with its
     * failure}
     */
    public Alt<A> read() {
        return read;
    }

    /** {@return whether the job has finished (in any way)} */
    public boolean isDone() {
        return result.isFilled();
    }

    /** Starts the job as a detached fiber if no read has yet. */
    private void startJob(Worker w) {
        Job<A> j = job;
        if (j != null && JOB.compareAndSet(this, j, null)) {
            FiberImpl<Void> runner = new FiberImpl<>(new Run<>(j, result), w.engine(), null, false);
            w.fiberStarted();
            w.push(runner);
        }
    }

    @Override
    public String toString() {
        return "Promise[" + (job != null ? "not started" : result.isFilled() ? "done" : "running") + "]";
    }

    /** {@code read()}. */
    private final class Read extends Alt<A> {
        @Override
        void doJob(Worker w, Cont<A> k) {
            startJob(w);
            result.read().doJob(w, k);
        }

        @Override
        void tryAlt(Worker w, int i, Cont<A> k, Else e) {
            startJob(w);
            result.read().tryAlt(w, i, k, e);
        }
    }

    /** The promise's fiber: runs the job and fills the shared IVar with its outcome. */
    private static final class Run<A> extends Job<Void> {
        private final Job<A> job;
        private final IVar<A> result;

        Run(Job<A> job, IVar<A> result) {
            this.job = job;
            this.result = result;
        }

        @Override
        void doJob(Worker w, Cont<Void> k) {
            job.doJob(w, new Settle<>(result, k));
        }
    }

    /** Fills the shared IVar with the job's outcome, then ends the promise's fiber. */
    private static final class Settle<A> extends Cont<A> {
        private final IVar<A> result;
        private final Cont<Void> k;

        Settle(IVar<A> result, Cont<Void> k) {
            super(k.fiber());
            this.result = result;
            this.k = k;
        }

        @Override
        public void doCont(Worker w, A a) {
            result.fillNow(w, a);
            Trampoline.succeed(w, k, null);
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            result.failNow(w, CancelSignal.is(e) ? new CancellationException("the promise's job was cancelled") : e);
            Trampoline.fail(w, k, e);
        }
    }

    private static final VarHandle JOB;

    static {
        try {
            JOB = MethodHandles.lookup().findVarHandle(Promise.class, "job", Job.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
