package dev.spindle;

import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.DroppedValues;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import java.util.function.Function;

/**
 * Finalizers and masking: {@code ensure}, {@code onCancel}, {@code uncancelable}, {@code bracket}.
 *
 * <p>A finalizer runs exactly once, after the body ends in any way it applies to, and runs uncancelable.
 * Its failure is added as suppressed to the body's failure, becomes the failure when the body succeeded,
 * and goes to the uncaught handler when the body was cancelled (a cancelled job has no failure to carry it).
 */
final class Cleanup {
    private Cleanup() {
    }

    /** {@code Job.uncancelable(job)}: cancellation requested meanwhile takes effect when the region ends. */
    static final class Uncancelable<A> extends Job<A> {
        private final Job<A> job;

        Uncancelable(Job<A> job) {
            this.job = job;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            if (w.outOfFuel()) { // nested regions must not grow the stack without bound
                w.bounce(new JobSupport.JobWork<>(this, k));
                return;
            }
            k.fiber().mask();
            job.doJob(w, new UnmaskCont<>(k));
        }
    }

    static final class UnmaskCont<A> extends Cont<A> {
        private final Cont<A> k;

        UnmaskCont(Cont<A> k) {
            super(k.fiber());
            this.k = k;
        }

        @Override
        public void doCont(Worker w, A a) {
            if (endRegion(w, this)) {
                DroppedValues.release(a); // the region's value, which the deferred cancellation drops
                Trampoline.fail(w, k, CancelSignal.INSTANCE);
            } else {
                Trampoline.succeed(w, k, a);
            }
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            endRegion(w, this);
            Trampoline.fail(w, k, e);
        }
    }

    /**
     * Ends the uncancelable region of {@code k}'s fiber; when a cancellation was deferred by it, cancels the
     * fiber's children and returns true (the caller then fails, or lets the next cancellation point fail).
     */
    private static boolean endRegion(Worker w, Cont<?> k) {
        if (k.fiber().unmask()) {
            ((FiberImpl<?>) k.fiber()).cancelChildren(w);
            return true;
        }
        return false;
    }

    /**
     * {@code Job.bracket(acquire, use, release)}. Between the value acquire gives and the finalizer that
     * releases it there is no cancellation point, so a cancellation arriving after acquire's commit reaches
     * {@code use} (which is then not called) and the resource is released. An uncancelable acquire's region
     * ends in the same step, so the cancellation it deferred takes that path too instead of dropping the
     * region's value. An acquire that answers at once (a take that finds a message) continues here without a
     * continuation object.
     */
    static final class Bracket<R, A> extends Sequence.Step<R, A> {
        private final Job<R> acquire;
        private final Function<? super R, ? extends Job<A>> use;
        private final Function<? super R, ? extends Job<Void>> release;

        Bracket(Job<R> acquire, Function<? super R, ? extends Job<A>> use,
                Function<? super R, ? extends Job<Void>> release) {
            this.acquire = acquire;
            this.use = use;
            this.release = release;
        }

        @Override
        @SuppressWarnings("unchecked")
        void doJob(Worker w, Cont<A> k) {
            if (w.outOfFuel()) {
                w.bounce(new JobSupport.JobWork<>(this, k));
                return;
            }
            if (acquire instanceof Uncancelable<R> region) {
                k.fiber().mask();
                region.job.doJob(w, new AcquiredCont<>(this, true, k));
                return;
            }
            Object resource = acquire.doJobNow(w, this, k);
            if (resource != Job.LATER) {
                acquired(w, (R) resource, k);
            }
        }

        @Override
        public Cont<R> contAfter(Cont<A> k) {
            return new AcquiredCont<>(this, false, k);
        }

        /** Puts the release of {@code resource} in place, then runs {@code use} under it unless cancelled. */
        void acquired(Worker w, R resource, Cont<A> k) {
            // release's function is called only to release: it may close the resource as it makes the job
            Cont<A> released = new EnsureCont<>(new Pure.Defer<>(() -> release.apply(resource),
                    "Job.bracket: release returned null instead of a job"), false, k);
            if (k.fiber().cancelPending()) {
                Trampoline.fail(w, released, CancelSignal.INSTANCE);
            } else {
                Job<A> body = Sequence.BindCont.apply(w, use, resource, released,
                        "Job.bracket: use returned null instead of a job");
                if (body != null) {
                    body.doJob(w, released);
                }
            }
        }
    }

    /** Receives a bracket's resource when its acquire waited or ran as the bracket's uncancelable region. */
    static final class AcquiredCont<R, A> extends Cont<R> {
        private final Bracket<R, A> bracket;
        /** True when acquire ran as the bracket's own uncancelable region, which ends here. */
        private final boolean masked;
        private final Cont<A> k;

        AcquiredCont(Bracket<R, A> bracket, boolean masked, Cont<A> k) {
            super(k.fiber());
            this.bracket = bracket;
            this.masked = masked;
            this.k = k;
        }

        @Override
        public void doCont(Worker w, R resource) {
            if (masked) {
                endRegion(w, this); // a deferred cancellation is seen by acquired, with the release in place
            }
            bracket.acquired(w, resource, k);
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            if (masked) {
                endRegion(w, this);
            }
            Trampoline.fail(w, k, e);
        }
    }

    /** {@code job.ensure(fin)} ({@code onlyOnCancel == false}) and {@code job.onCancel(fin)}. */
    static final class Ensure<A> extends Job<A> {
        private final Job<A> job;
        private final Job<Void> finalizer;
        private final boolean onlyOnCancel;

        Ensure(Job<A> job, Job<Void> finalizer, boolean onlyOnCancel) {
            this.job = job;
            this.finalizer = finalizer;
            this.onlyOnCancel = onlyOnCancel;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            if (w.outOfFuel()) {
                w.bounce(new JobSupport.JobWork<>(this, k));
                return;
            }
            job.doJob(w, new EnsureCont<>(finalizer, onlyOnCancel, k));
        }
    }

    static final class EnsureCont<A> extends Cont<A> {
        private final Job<Void> finalizer;
        private final boolean onlyOnCancel;
        private final Cont<A> k;

        EnsureCont(Job<Void> finalizer, boolean onlyOnCancel, Cont<A> k) {
            super(k.fiber());
            this.finalizer = finalizer;
            this.onlyOnCancel = onlyOnCancel;
            this.k = k;
        }

        @Override
        public void doCont(Worker w, A a) {
            if (onlyOnCancel) {
                Trampoline.succeed(w, k, a);
            } else {
                new Uncancelable<>(finalizer).doJob(w, new AfterFinalizer<>(k, a, null));
            }
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            if (onlyOnCancel && !CancelSignal.is(e)) {
                Trampoline.fail(w, k, e);
            } else {
                new Uncancelable<>(finalizer).doJob(w, new AfterFinalizer<>(k, null, e));
            }
        }
    }

    /** Continues the body's outcome once its finalizer has finished. */
    static final class AfterFinalizer<A> extends Cont<Void> {
        private final Cont<A> k;
        private final A bodyValue;
        private final Throwable bodyError;

        AfterFinalizer(Cont<A> k, A bodyValue, Throwable bodyError) {
            super(k.fiber());
            this.k = k;
            this.bodyValue = bodyValue;
            this.bodyError = bodyError;
        }

        @Override
        public void doCont(Worker w, Void ignored) {
            if (bodyError == null) {
                Trampoline.succeed(w, k, bodyValue);
            } else {
                Trampoline.fail(w, k, bodyError);
            }
        }

        @Override
        public void doHandle(Worker w, Throwable finalizerError) {
            if (CancelSignal.is(finalizerError)) {
                // not a failure of the finalizer: cancellation pending at the end of its masked region
                Trampoline.fail(w, k, bodyError != null ? bodyError : finalizerError);
            } else if (bodyError == null) {
                Trampoline.fail(w, k, finalizerError);
            } else if (CancelSignal.is(bodyError)) {
                w.engine().reportUncaught(finalizerError);
                Trampoline.fail(w, k, bodyError);
            } else {
                if (finalizerError != bodyError) {
                    bodyError.addSuppressed(finalizerError);
                }
                Trampoline.fail(w, k, bodyError);
            }
        }
    }
}
