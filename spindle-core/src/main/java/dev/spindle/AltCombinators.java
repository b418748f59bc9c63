package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Timer;
import dev.spindle.internal.run.TimerQueue;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.Else;
import dev.spindle.internal.select.Pick;
import dev.spindle.internal.select.PendingTimers;
import dev.spindle.internal.select.PickListener;
import java.time.Duration;
import java.util.function.Function;

/**
 * The combinators of {@link Alt}: {@code always}, {@code after}, {@code guard}, {@code withNack},
 * {@code wrap}, {@code afterJob}. ({@code choose} and {@code never} are {@link Choose}.)
 */
final class AltCombinators {
    private AltCombinators() {
    }

    /** {@code Alt.always(x)}: commits at once. */
    static final class Always<A> extends Alt<A> {
        private final A value;

        Always(A value) {
            this.value = value;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            Trampoline.succeed(w, k, value);
        }

        @Override
        void tryAlt(Worker w, int i, Cont<A> k, Else e) {
            Pick pk = e.pick;
            if (pk.commitSelf(i)) {
                pk.fireListeners(w);
                Trampoline.succeed(w, k, value);
            } else {
                pk.instantiated(w);
            }
        }

        @Override
        public String toString() {
            return "always";
        }
    }

    /** {@code Alt.after(d)}: a timer per instantiation, removed when another alternative wins. */
    static final class After extends Alt<Void> {
        private final long nanos;
        /** The plain form: a sleep. */
        private final Job<Void> sleep;

        After(long nanos) {
            this.nanos = nanos;
            this.sleep = Job.sleep(Duration.ofNanos(nanos));
        }

        @Override
        void doJob(Worker w, Cont<Void> k) {
            sleep.doJob(w, k);
        }

        @Override
        void tryAlt(Worker w, int i, Cont<Void> k, Else e) {
            Pick pk = e.pick;
            if (nanos == 0) {
                if (pk.commitSelf(i)) {
                    pk.fireListeners(w);
                    Trampoline.succeed(w, k, null);
                } else {
                    pk.instantiated(w);
                }
                return;
            }
            Engine engine = w.engine();
            Timer timer = new Timer(engine.nanoTime() + nanos, new Timeout(pk, i, k));
            try {
                engine.timers().schedule(timer);
                assert PendingTimers.armed();
            } catch (RuntimeException closed) {
                pk.fail(w, closed);
                return;
            }
            // Armed before the listener is added: a pick decided in between still removes the timer.
            if (!pk.addListener(new TimerRemover(i, timer, engine.timers()))) {
                boolean removed = engine.timers().cancel(timer);
                assert !removed || PendingTimers.gone();
                pk.instantiated(w);
                return;
            }
            e.tryElse(w, i + 1);
        }

        @Override
        public String toString() {
            return "after " + Duration.ofNanos(nanos);
        }
    }

    /** What an {@link After}'s timer runs: commits the timeout alternative unless the pick is decided. */
    static final class Timeout extends Work {
        private final Pick pick;
        private final int index;
        private final Cont<Void> k;

        Timeout(Pick pick, int index, Cont<Void> k) {
            this.pick = pick;
            this.index = index;
            this.k = k;
        }

        @Override
        public void doWork(Worker w) {
            assert PendingTimers.gone();
            if (Pick.commit(null, 0, pick, index) == Pick.Commit.COMMITTED) {
                pick.fireListeners(w);
                k.setResumeValue(null);
                pick.resume(w, k);
            }
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            w.engine().reportUncaught(e);
        }
    }

    /**
     * Removes an {@link After}'s timer when another alternative wins. It names the queue the timer was armed
     * on: the winner may commit the pick on a worker of another scheduler (a channel shared between two).
     */
    static final class TimerRemover extends PickListener {
        private final Timer timer;
        private final TimerQueue queue;

        TimerRemover(int index, Timer timer, TimerQueue queue) {
            super(index, index + 1);
            this.timer = timer;
            this.queue = queue;
        }

        @Override
        protected void fire(Worker w) {
            boolean removed = queue.cancel(timer);
            assert !removed || PendingTimers.gone();
        }
    }

    /** {@code Alt.guard(job)}. */
    static final class Guard<A> extends Alt<A> {
        private final Job<Alt<A>> setUp;

        @SuppressWarnings("unchecked")
        Guard(Job<? extends Alt<A>> setUp) {
            this.setUp = (Job<Alt<A>>) setUp; // sound: the job only ever gives an Alt<A>
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            setUp.doJob(w, new PlainGuardCont<>(k));
        }

        @Override
        void tryAlt(Worker w, int i, Cont<A> k, Else e) {
            setUp.doJob(w, new GuardCont<>(i, k, e));
        }

        @Override
        boolean endsAtCommit() {
            return false;
        }

        @Override
        public String toString() {
            return "guard";
        }
    }

    /** Runs the alternative a guard's job gave as a plain job. */
    static final class PlainGuardCont<A> extends Cont<Alt<A>> {
        private final Cont<A> k;

        PlainGuardCont(Cont<A> k) {
            super(k.fiber());
            this.k = k;
        }

        @Override
        public void doCont(Worker w, Alt<A> alt) {
            if (alt == null) {
                Trampoline.fail(w, k, new NullPointerException("Alt.guard: the set-up job gave null instead of an alt"));
            } else {
                alt.doJob(w, k);
            }
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            Trampoline.fail(w, k, e);
        }
    }

    /** Instantiates the alternative a guard's (or withNack's) job gave, as number {@code i}. */
    static final class GuardCont<A> extends Cont<Alt<A>> {
        private final int i;
        private final Cont<A> k;
        private final Else e;

        GuardCont(int i, Cont<A> k, Else e) {
            super(k.fiber());
            this.i = i;
            this.k = k;
            this.e = e;
        }

        @Override
        public void doCont(Worker w, Alt<A> alt) {
            Pick pk = e.pick;
            if (alt == null) {
                pk.fail(w, new NullPointerException("Alt.guard/withNack: the set-up job gave null instead of an alt"));
            } else if (pk.isPicked()) {
                pk.instantiated(w); // a partner committed an earlier alternative while the job ran
            } else {
                alt.tryAlt(w, i, k, e);
            }
        }

        @Override
        public void doHandle(Worker w, Throwable error) {
            e.pick.fail(w, error);
        }
    }

    /** {@code Alt.withNack(f)}. */
    static final class WithNack<A> extends Alt<A> {
        private final Function<? super Alt<Void>, ? extends Job<? extends Alt<A>>> setUp;

        WithNack(Function<? super Alt<Void>, ? extends Job<? extends Alt<A>>> setUp) {
            this.setUp = setUp;
        }

        @Override
        boolean endsAtCommit() {
            return false;
        }

        @Override
        @SuppressWarnings("unchecked")
        void tryAlt(Worker w, int i, Cont<A> k, Else e) {
            Pick pk = e.pick;
            IVar<Void> signal = new IVar<>("nack");
            Nack nack = new Nack(i, signal);
            if (!pk.addListener(nack)) {
                pk.instantiated(w); // decided already: nothing to instantiate, nobody to tell
                return;
            }
            Job<? extends Alt<A>> job;
            try {
                job = setUp.apply(signal.read());
                if (job == null) {
                    throw new NullPointerException("Alt.withNack: the set-up function returned null instead of a job");
                }
            } catch (Throwable error) {
                pk.fail(w, error);
                return;
            }
            ((Job<Alt<A>>) job).doJob(w, new GuardCont<>(i, k, new NackElse(nack, e)));
        }

        @Override
        public String toString() {
            return "withNack";
        }
    }

    /** The nack of one withNack instantiation: filled when an alternative outside its range wins. */
    static final class Nack extends PickListener {
        private final IVar<Void> signal;

        Nack(int first, IVar<Void> signal) {
            super(first);
            this.signal = signal;
        }

        @Override
        protected void fire(Worker w) {
            signal.fillNow(w, null);
        }
    }

    /** Closes a nack's range once the withNack's alternative has been instantiated. */
    static final class NackElse extends Else {
        private final Nack nack;
        private final Else outer;

        NackElse(Nack nack, Else outer) {
            super(outer.pick);
            this.nack = nack;
            this.outer = outer;
        }

        @Override
        public void tryElse(Worker w, int i) {
            nack.endAt(i); // benign race, see Pick's overview ("Nack ranges")
            outer.tryElse(w, i);
        }
    }

    /** {@code alt.wrap(f)}. */
    static final class Wrap<A, B> extends Alt<B> {
        private final Alt<A> alt;
        private final Function<? super A, ? extends B> f;

        Wrap(Alt<A> alt, Function<? super A, ? extends B> f) {
            this.alt = alt;
            this.f = f;
        }

        @Override
        void doJob(Worker w, Cont<B> k) {
            alt.doJob(w, new Sequence.MapCont<>(f, k));
        }

        @Override
        void tryAlt(Worker w, int i, Cont<B> k, Else e) {
            alt.tryAlt(w, i, new Sequence.MapCont<>(f, k), e);
        }

        @Override
        boolean endsAtCommit() {
            return alt.endsAtCommit();
        }

        @Override
        public String toString() {
            return alt.toString();
        }
    }


    /** {@code alt.afterJob(f)}. */
    static final class AfterJob<A, B> extends Alt<B> {
        private final Alt<A> alt;
        private final Function<? super A, ? extends Job<B>> f;

        AfterJob(Alt<A> alt, Function<? super A, ? extends Job<B>> f) {
            this.alt = alt;
            this.f = f;
        }

        @Override
        boolean endsAtCommit() {
            return false;
        }

        @Override
        void doJob(Worker w, Cont<B> k) {
            alt.doJob(w, new AfterJobCont<>(f, k));
        }

        @Override
        void tryAlt(Worker w, int i, Cont<B> k, Else e) {
            alt.tryAlt(w, i, new AfterJobCont<>(f, k), e);
        }

        @Override
        public String toString() {
            return alt.toString();
        }
    }

    /** Starts an afterJob's job with the committed value; deliberately not a cancellation point. */
    static final class AfterJobCont<A, B> extends Cont<A> {
        private final Function<? super A, ? extends Job<B>> f;
        private final Cont<B> k;

        AfterJobCont(Function<? super A, ? extends Job<B>> f, Cont<B> k) {
            super(k.fiber());
            this.f = f;
            this.k = k;
        }

        @Override
        public void doCont(Worker w, A a) {
            Job<B> next;
            try {
                next = f.apply(a);
                if (next == null) {
                    throw new NullPointerException("Alt.afterJob: the function returned null instead of a job");
                }
            } catch (Throwable e) {
                Trampoline.fail(w, k, e);
                return;
            }
            if (w.outOfFuel()) {
                w.bounce(new JobSupport.JobWork<>(next, k));
            } else {
                next.doJob(w, k);
            }
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            Trampoline.fail(w, k, e);
        }
    }
}
