package dev.spindle;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Strand;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.JobBody;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;

/** The API package's side of {@link Bridge}: jobs from bodies, and the continuation helpers. */
final class BridgeImpl implements Bridge.JobFactory {
    static final BridgeImpl INSTANCE = new BridgeImpl();

    private BridgeImpl() {
    }

    @Override
    public <A> Job<A> job(JobBody<A> body) {
        return new BodyJob<>(body);
    }

    @Override
    public <A> void succeed(Worker w, Cont<A> k, A a) {
        Jobs.succeed(w, k, a);
    }

    @Override
    public void fail(Worker w, Cont<?> k, Throwable e) {
        Jobs.fail(w, k, e);
    }

    @Override
    public void failCancelled(Worker w, Cont<?> k) {
        Jobs.fail(w, k, Jobs.CancelSignal.INSTANCE);
    }

    @Override
    public Work failWork(Cont<?> k, Throwable e) {
        return new Jobs.FailWork(k, e);
    }

    @Override
    public <A> Fiber<A> startRoot(Scheduler scheduler, Job<A> job) {
        return scheduler.startRoot(job, false);
    }

    @Override
    public Scheduler scheduler(Engine engine) {
        return new Scheduler(engine);
    }

    @Override
    public Blocker blockerOf(Strand<?> fiber) {
        FiberCore<?> f = (FiberCore<?>) fiber;
        return f.isDone() ? null : f.lastBlocker();
    }

    /** A job whose doJob is a {@link JobBody}. */
    static final class BodyJob<A> extends Job<A> {
        private final JobBody<A> body;

        BodyJob(JobBody<A> body) {
            this.body = body;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            body.doJob(w, k);
        }
    }
}
