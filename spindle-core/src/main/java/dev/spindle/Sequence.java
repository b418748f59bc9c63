package dev.spindle;

import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import java.util.function.Function;

/**
 * Sequencing: {@code flatMap} (bind), {@code map}, {@code then}. Every bind step is a cancellation point
 * (one volatile read of the fiber's cancel state) and spends one step of the worker's fuel; when the fuel
 * is out it bounces through the work stack, so chains of any length run in bounded Java stack.
 */
final class Sequence {
    /** What {@link #joinedValue} gives when the first job is not the join of a fiber that has succeeded. */
    private static final Object NOT_JOINED = new Object();

    private Sequence() {
    }

    /**
     * The value of {@code first} when it is the plain join of a fiber of {@code w}'s engine that has already
     * succeeded, else {@link #NOT_JOINED}: running such a join would only hand that value on, so a bind or a
     * map continues with it here, without a continuation object (fork/join mostly joins finished children).
     */
    @SuppressWarnings("unchecked")
    private static <A> A joinedValue(Job<A> first, Worker w) {
        return (A) (first instanceof FiberJobs.Join<?, ?> join && join.succeededHere(w) ? join.valueNow() : NOT_JOINED);
    }

    /** {@code first.flatMap(f)}. */
    static final class Bind<A, B> extends Job<B> {
        private final Job<A> first;
        private final Function<? super A, ? extends Job<B>> f;

        Bind(Job<A> first, Function<? super A, ? extends Job<B>> f) {
            this.first = first;
            this.f = f;
        }

        @Override
        void doJob(Worker w, Cont<B> k) {
            if (w.outOfFuel()) {
                w.bounce(new JobSupport.JobWork<>(this, k));
                return;
            }
            A joined = joinedValue(first, w);
            if (joined != NOT_JOINED) {
                BindCont.step(w, f, joined, k); // this step's fuel is spent above
                return;
            }
            first.doJob(w, new BindCont<>(f, k));
        }
    }

    static final class BindCont<A, B> extends Cont<A> {
        private final Function<? super A, ? extends Job<B>> f;
        private final Cont<B> k;

        BindCont(Function<? super A, ? extends Job<B>> f, Cont<B> k) {
            super(k.fiber());
            this.f = f;
            this.k = k;
        }

        @Override
        public void doCont(Worker w, A a) {
            if (fiber() != null && fiber().cancelPending()) {
                Trampoline.fail(w, k, CancelSignal.INSTANCE);
                return;
            }
            if (w.outOfFuel()) {
                setResumeValue(a);
                w.bounce(this);
                return;
            }
            applyAndRun(w, f, a, k);
        }

        /** A bind step without a continuation object: the cancellation point, then {@code f(a)} into k. */
        static <A, B> void step(Worker w, Function<? super A, ? extends Job<B>> f, A a, Cont<B> k) {
            if (k.fiber() != null && k.fiber().cancelPending()) {
                Trampoline.fail(w, k, CancelSignal.INSTANCE);
                return;
            }
            applyAndRun(w, f, a, k);
        }

        private static <A, B> void applyAndRun(Worker w, Function<? super A, ? extends Job<B>> f, A a,
                Cont<B> k) {
            Job<B> next;
            try {
                next = f.apply(a);
                if (next == null) {
                    throw new NullPointerException("flatMap: the function returned null instead of a job");
                }
            } catch (Throwable e) {
                k.doHandle(w, e);
                return;
            }
            next.doJob(w, k);
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            Trampoline.fail(w, k, e);
        }
    }

    /** {@code first.then(second)}: runs second after first, ignoring first's value. */
    static final class Then<A, B> extends Job<B> {
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
            first.doJob(w, new ThenCont<>(second, k));
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
            if (fiber() != null && fiber().cancelPending()) {
                Trampoline.fail(w, k, CancelSignal.INSTANCE);
            } else if (w.outOfFuel()) {
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
    static final class MapJob<A, B> extends Job<B> {
        private final Job<A> first;
        private final Function<? super A, ? extends B> f;

        MapJob(Job<A> first, Function<? super A, ? extends B> f) {
            this.first = first;
            this.f = f;
        }

        @Override
        void doJob(Worker w, Cont<B> k) {
            if (w.outOfFuel()) {
                w.bounce(new JobSupport.JobWork<>(this, k));
                return;
            }
            A joined = joinedValue(first, w);
            if (joined != NOT_JOINED) {
                MapCont.apply(w, f, joined, k);
                return;
            }
            first.doJob(w, new MapCont<>(f, k));
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
