package dev.spindle;

import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.DroppedValues;
import dev.spindle.internal.run.StepTail;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import java.util.function.Function;

/**
 * Sequencing: {@code flatMap} (bind), {@code map}, {@code then}. Every bind step is a cancellation point
 * (one volatile read of the fiber's cancel state) and spends one step of the worker's fuel; when the fuel
 * is out it bounces through the work stack, so chains of any length run in bounded Java stack.
 */
final class Sequence {
    private Sequence() {
    }

    /**
     * A sequencing step: a job that runs a first job and continues after it. The first job runs through
     * {@link Job#doJobNow}, so a first job that succeeds at once (a channel operation that meets its partner,
     * a finished join, a call) continues the step here without a continuation object. A plain value
     * ({@code Job.result}) deliberately does not answer at once, so that C2 does not compile each
     * recursive step with its whole continuation inlined (docs/benchmark-history-oldest.md, "A step goes on
     * at once after a first job that succeeds at once").
     *
     * @param <A> the type of the first job's value
     * @param <B> the type of the step's value
     */
    abstract static class Step<A, B> extends Job<B> implements StepTail<A, B> {
        /** Redeclared so that the runtime's own steps call it through the class (a virtual call). */
        @Override
        public abstract Cont<A> contAfter(Cont<B> k);
    }

    /** Fails {@code k} and returns true when its fiber's cancellation is pending (a cancellation point). */
    private static boolean failedCancelled(Worker w, Cont<?> k) {
        if (k.fiber() != null && k.fiber().cancelPending()) {
            Trampoline.fail(w, k, CancelSignal.INSTANCE);
            return true;
        }
        return false;
    }

    /** {@code first.flatMap(f)}. */
    static final class Bind<A, B> extends Step<A, B> {
        private final Job<A> first;
        private final Function<? super A, ? extends Job<B>> f;

        Bind(Job<A> first, Function<? super A, ? extends Job<B>> f) {
            this.first = first;
            this.f = f;
        }

        @Override
        @SuppressWarnings("unchecked")
        void doJob(Worker w, Cont<B> k) {
            if (w.outOfFuel()) {
                w.bounce(new JobSupport.JobWork<>(this, k));
                return;
            }
            Object a = first.doJobNow(w, this, k);
            if (a != Job.LATER) {
                Job<B> next = BindCont.next(w, f, (A) a, k); // this step's fuel is spent above
                if (next != null) {
                    next.doJob(w, k);
                }
            }
        }

        @Override
        public Cont<A> contAfter(Cont<B> k) {
            return new BindCont<>(f, k);
        }
    }

    static final class BindCont<A, B> extends Cont<A> {
        private static final String NULL_NEXT = "flatMap: the function returned null instead of a job";
        private final Function<? super A, ? extends Job<B>> f;
        private final Cont<B> k;

        BindCont(Function<? super A, ? extends Job<B>> f, Cont<B> k) {
            super(k.fiber());
            this.f = f;
            this.k = k;
        }

        @Override
        public void doCont(Worker w, A a) {
            if (failedCancelled(w, k)) {
                DroppedValues.release(a); // a socket a wait committed to, which nobody else holds
                return;
            }
            if (w.outOfFuel()) {
                setResumeValue(a);
                w.bounce(this);
                return;
            }
            Job<B> next = apply(w, f, a, k, NULL_NEXT);
            if (next != null) {
                next.doJob(w, k);
            }
        }

        /**
         * A bind step without a continuation object: the cancellation point, then {@code f(a)}, the job to run
         * into {@code k}; null when {@code k} has been failed instead.
         */
        static <A, B> Job<B> next(Worker w, Function<? super A, ? extends Job<B>> f, A a, Cont<B> k) {
            if (failedCancelled(w, k)) {
                DroppedValues.release(a);
                return null;
            }
            return apply(w, f, a, k, NULL_NEXT);
        }

        /**
         * The job {@code f(a)}, for the caller to run into {@code k}; null when a throwing {@code f} or a null
         * job (reported with {@code nullMessage}, which names the API that took {@code f}) failed {@code k}.
         * The caller makes the call {@code next.doJob} itself, so that each kind of step has a call site and a
         * type profile of its own there (benchmark notebook, "each bind step calls its next job from a call
         * site of its own").
         */
        static <A, B> Job<B> apply(Worker w, Function<? super A, ? extends Job<B>> f, A a, Cont<B> k,
                String nullMessage) {
            Job<B> next;
            try {
                next = f.apply(a);
                if (next == null) {
                    throw new NullPointerException(nullMessage);
                }
            } catch (Throwable e) {
                k.doHandle(w, e);
                return null;
            }
            return next;
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            Trampoline.fail(w, k, e);
        }
    }

    /** {@code first.then(second)}: runs second after first, ignoring first's value. */
    static final class Then<A, B> extends Step<A, B> {
        private final Job<A> first;
        private final Job<B> second;

        Then(Job<A> first, Job<B> second) {
            this.first = first;
            this.second = second;
        }

        @Override
        void doJob(Worker w, Cont<B> k) {
            if (w.outOfFuel()) {
                w.bounce(new JobSupport.JobWork<>(this, k));
                return;
            }
            if (first.doJobNow(w, this, k) != Job.LATER && !failedCancelled(w, k)) {
                second.doJob(w, k); // this step's fuel is spent above
            }
        }

        @Override
        public Cont<A> contAfter(Cont<B> k) {
            return new ThenCont<>(second, k);
        }
    }

    static final class ThenCont<A, B> extends Cont<A> {
        private final Job<B> second;
        private final Cont<B> k;

        ThenCont(Job<B> second, Cont<B> k) {
            super(k.fiber());
            this.second = second;
            this.k = k;
        }

        @Override
        public void doCont(Worker w, A a) {
            if (failedCancelled(w, k)) {
                return;
            }
            if (w.outOfFuel()) {
                w.bounce(new JobSupport.JobWork<>(second, k));
            } else {
                second.doJob(w, k);
            }
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            Trampoline.fail(w, k, e);
        }
    }

    /** {@code first.map(f)}. */
    static final class MapJob<A, B> extends Step<A, B> {
        private final Job<A> first;
        private final Function<? super A, ? extends B> f;

        MapJob(Job<A> first, Function<? super A, ? extends B> f) {
            this.first = first;
            this.f = f;
        }

        @Override
        @SuppressWarnings("unchecked")
        void doJob(Worker w, Cont<B> k) {
            if (w.outOfFuel()) {
                w.bounce(new JobSupport.JobWork<>(this, k));
                return;
            }
            Object a = first.doJobNow(w, this, k);
            if (a != Job.LATER) {
                MapCont.apply(w, f, (A) a, k);
            }
        }

        @Override
        public Cont<A> contAfter(Cont<B> k) {
            return new MapCont<>(f, k);
        }
    }

    static final class MapCont<A, B> extends Cont<A> {
        private final Function<? super A, ? extends B> f;
        private final Cont<B> k;

        MapCont(Function<? super A, ? extends B> f, Cont<B> k) {
            super(k.fiber());
            this.f = f;
            this.k = k;
        }

        @Override
        public void doCont(Worker w, A a) {
            apply(w, f, a, k);
        }

        /** A map step without a continuation object: {@code f(a)} into k. */
        static <A, B> void apply(Worker w, Function<? super A, ? extends B> f, A a, Cont<B> k) {
            B b;
            try {
                b = f.apply(a);
            } catch (Throwable e) {
                Trampoline.fail(w, k, e);
                return;
            }
            Trampoline.succeed(w, k, b);
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            Trampoline.fail(w, k, e);
        }
    }
}
