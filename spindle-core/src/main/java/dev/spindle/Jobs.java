package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletionException;

/** Helpers shared by the job implementations: signals, small work items, argument checks. */
final class Jobs {
    private Jobs() {
    }

    /**
     * The failure that carries cancellation up a fiber's continuation chain. It is not a user-visible
     * exception: recovery combinators let it pass, finalizers run on it, and the fiber's root turns it into
     * {@link Outcome.Cancelled}. A singleton without stack trace.
     */
    static final class CancelSignal extends Throwable {
        private static final long serialVersionUID = 1L;
        static final CancelSignal INSTANCE = new CancelSignal();

        private CancelSignal() {
            super("cancelled", null, false, false);
        }
    }

    static boolean isCancel(Throwable e) {
        return e == CancelSignal.INSTANCE;
    }

    /** Work item that delivers a failure to a continuation. */
    static final class FailWork extends Work {
        private final Cont<?> k;
        private final Throwable error;

        FailWork(Cont<?> k, Throwable error) {
            this.k = k;
            this.error = error;
        }

        @Override
        public void doWork(Worker w) {
            k.doHandle(w, error);
        }

        @Override
        public dev.spindle.internal.run.Strand<?> owner() {
            return k.fiber;
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            k.doHandle(w, e);
        }
    }

    /** Work item that (re)starts a job with a continuation: the bounce of a deep {@code doJob} chain. */
    static final class JobWork<A> extends Work {
        private final Job<A> job;
        private final Cont<A> k;

        JobWork(Job<A> job, Cont<A> k) {
            this.job = job;
            this.k = k;
        }

        @Override
        public void doWork(Worker w) {
            job.doJob(w, k);
        }

        @Override
        public dev.spindle.internal.run.Strand<?> owner() {
            return k.fiber;
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            k.doHandle(w, e);
        }
    }

    /** Delivers {@code e} to {@code k}, bouncing through the work stack when the step budget is spent. */
    static void fail(Worker w, Cont<?> k, Throwable e) {
        if (w.outOfFuel()) {
            w.bounce(new FailWork(k, e));
        } else {
            k.doHandle(w, e);
        }
    }

    /** Delivers {@code a} to {@code k}, bouncing (k itself is the work item) when the budget is spent. */
    static <A> void succeed(Worker w, Cont<A> k, A a) {
        if (w.outOfFuel()) {
            k.value = a;
            w.bounce(k);
        } else {
            k.doCont(w, a);
        }
    }

    /** The exception a blocking caller throws for {@code e}: unchecked as is, checked wrapped. */
    static RuntimeException rethrowable(Throwable e) {
        if (e instanceof RuntimeException r) {
            return r;
        }
        if (e instanceof Error err) {
            throw err;
        }
        return new CompletionException(e);
    }
}
