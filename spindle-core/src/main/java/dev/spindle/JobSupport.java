package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import java.util.concurrent.CompletionException;

/** Helpers shared by the job implementations: the bounce of a job, the rethrow of a blocking caller. */
final class JobSupport {
    private JobSupport() {
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
        public dev.spindle.internal.run.FiberBase<?> fiber() {
            return k.fiber();
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            k.doHandle(w, e);
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
