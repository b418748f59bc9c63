package dev.spindle;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.AltImpl;
import dev.spindle.internal.select.Else;
import dev.spindle.internal.select.JobImpl;

/** The API package's side of {@link Bridge}: jobs and alternatives implemented elsewhere, schedulers. */
final class BridgeImpl implements Bridge.JobFactory {
    static final BridgeImpl INSTANCE = new BridgeImpl();

    private BridgeImpl() {
    }

    @Override
    public <A> Job<A> job(JobImpl<A> impl) {
        return new ExternalJob<>(impl);
    }

    @Override
    public <A> Alt<A> alt(AltImpl<A> impl) {
        return new ExternalAlt<>(impl);
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
    public Blocker blockerOf(FiberBase<?> fiber) {
        FiberImpl<?> f = (FiberImpl<?>) fiber;
        return f.isDone() ? null : f.lastBlocker();
    }

    /** A job implemented outside this package: its doJob is a {@link JobImpl}'s. */
    static final class ExternalJob<A> extends Job<A> {
        private final JobImpl<A> impl;

        ExternalJob(JobImpl<A> impl) {
            this.impl = impl;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            impl.doJob(w, k);
        }

        @Override
        <B> Object doJobNow(Worker w, Sequence.Step<A, B> step, Cont<B> k) {
            return impl.doJobNow(w, step, k);
        }

        @Override
        public String toString() {
            return impl.toString();
        }
    }

    /** An alternative implemented outside this package: its doJob and tryAlt are an {@link AltImpl}'s. */
    static final class ExternalAlt<A> extends Alt<A> {
        private final AltImpl<A> impl;

        ExternalAlt(AltImpl<A> impl) {
            this.impl = impl;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            impl.doJob(w, k);
        }

        @Override
        <B> Object doJobNow(Worker w, Sequence.Step<A, B> step, Cont<B> k) {
            return impl.doJobNow(w, step, k);
        }

        @Override
        void tryAlt(Worker w, int i, Cont<A> k, Else e) {
            impl.tryAlt(w, i, k, e);
        }

        @Override
        public String toString() {
            return impl.toString();
        }
    }
}
