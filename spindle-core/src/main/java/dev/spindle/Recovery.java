package dev.spindle;

import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import java.util.function.Function;

/**
 * Failure handling: {@code recoverWith}, {@code attempt}. Cancellation is not a failure: it passes through
 * both untouched, so a cancelled fiber cannot be resurrected by a handler.
 */
final class Recovery {
    private Recovery() {
    }

    /** {@code job.recoverWith(handler)}. */
    static final class Recover<A> extends Job<A> {
        private final Job<A> job;
        private final Function<? super Throwable, ? extends Job<A>> handler;

        Recover(Job<A> job, Function<? super Throwable, ? extends Job<A>> handler) {
            this.job = job;
            this.handler = handler;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            if (w.outOfFuel()) {
                w.bounce(new JobSupport.JobWork<>(this, k));
                return;
            }
            job.doJob(w, new RecoverCont<>(handler, k));
        }
    }

    static final class RecoverCont<A> extends Cont<A> {
        private final Function<? super Throwable, ? extends Job<A>> handler;
        private final Cont<A> k;

        RecoverCont(Function<? super Throwable, ? extends Job<A>> handler, Cont<A> k) {
            super(k.fiber());
            this.handler = handler;
            this.k = k;
        }

        @Override
        public void doCont(Worker w, A a) {
            Trampoline.succeed(w, k, a);
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            if (CancelSignal.is(e)) {
                Trampoline.fail(w, k, e);
                return;
            }
            Job<A> next;
            try {
                next = handler.apply(e);
                if (next == null) {
                    throw new NullPointerException("recoverWith: the handler returned null instead of a job");
                }
            } catch (Throwable second) {
                if (second != e) {
                    second.addSuppressed(e);
                }
                Trampoline.fail(w, k, second);
                return;
            }
            next.doJob(w, k);
        }
    }

    /** {@code job.attempt()}: the job's success or failure as an {@link Outcome}. */
    static final class Attempt<A> extends Job<Outcome<A>> {
        private final Job<A> job;

        Attempt(Job<A> job) {
            this.job = job;
        }

        @Override
        void doJob(Worker w, Cont<Outcome<A>> k) {
            if (w.outOfFuel()) {
                w.bounce(new JobSupport.JobWork<>(this, k));
                return;
            }
            job.doJob(w, new AttemptCont<>(k));
        }
    }

    static final class AttemptCont<A> extends Cont<A> {
        private final Cont<Outcome<A>> k;

        AttemptCont(Cont<Outcome<A>> k) {
            super(k.fiber());
            this.k = k;
        }

        @Override
        public void doCont(Worker w, A a) {
            Trampoline.succeed(w, k, Outcome.success(a));
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            if (CancelSignal.is(e)) {
                Trampoline.fail(w, k, e);
            } else {
                Trampoline.succeed(w, k, Outcome.failure(e));
            }
        }
    }
}
