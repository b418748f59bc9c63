package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** Jobs that compute without blocking: constants, failures, calls. */
final class Pure {
    private Pure() {
    }

    static final Result<Void> UNIT = new Result<>(null);

    /**
     * A job that ends in its first run, on the running thread, without reaching a cancellation point and
     * without starting anything: its outcome cannot depend on a cancellation, so a fiber started for one
     * and run at once needs no ordering of its link against a canceller before it runs
     * ({@code FiberImpl.addLeafChild}).
     */
    abstract static class Leaf<A> extends Job<A> {
    }

    /** {@code Job.result(a)}. */
    static final class Result<A> extends Leaf<A> {
        private final A value;

        Result(A value) {
            this.value = value;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            Trampoline.succeed(w, k, value);
        }
    }

    /** {@code Job.failure(e)}. */
    static final class Fail<A> extends Leaf<A> {
        private final Throwable error;

        Fail(Throwable error) {
            this.error = error;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            Trampoline.fail(w, k, error);
        }
    }

    /** {@code Job.of(callable)}: runs the call each time the job runs. */
    static final class Call<A> extends Leaf<A> {
        private final Callable<? extends A> body;

        Call(Callable<? extends A> body) {
            this.body = body;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            doJobThroughNow(w, k);
        }

        @Override
        <B> Object doJobNow(Worker w, Sequence.Step<A, B> step, Cont<B> k) {
            try {
                return body.call();
            } catch (Throwable e) {
                Trampoline.fail(w, k, e);
                return LATER;
            }
        }
    }

    /** {@code Job.defer(supplier)}: builds the job to run each time it runs. */
    static final class Defer<A> extends Job<A> {
        private final Supplier<? extends Job<A>> factory;
        /** The failure's message when the factory gives null, naming the API the factory came from. */
        private final String nullMessage;

        Defer(Supplier<? extends Job<A>> factory, String nullMessage) {
            this.factory = factory;
            this.nullMessage = nullMessage;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            Job<A> job;
            try {
                job = factory.get();
                if (job == null) {
                    throw new NullPointerException(nullMessage);
                }
            } catch (Throwable e) {
                Trampoline.fail(w, k, e);
                return;
            }
            if (w.outOfFuel()) {
                w.bounce(new JobSupport.JobWork<>(job, k));
            } else {
                job.doJob(w, k);
            }
        }
    }
}
