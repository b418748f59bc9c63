package dev.spindle;

import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.run.FiberObserver;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/** Jobs about fibers: starting, joining and cancelling them, the running fiber, its name and generator. */
final class FiberJobs {
    private FiberJobs() {
    }

    /** How {@link Start} links the new fiber. */
    enum StartMode {
        /** A child of the current fiber. */
        CHILD,
        /** A root: not linked to the current fiber; the caller gets a handle. */
        DETACHED,
        /** A root without a handle: its failure goes to the uncaught handler. */
        FORGET
    }

    /** {@code job.start()}, {@code startDetached()}, {@code forget()}. */
    static final class Start<A> extends Job<Fiber<A>> {
        private final Job<A> job;
        private final StartMode mode;

        Start(Job<A> job, StartMode mode) {
            this.job = job;
            this.mode = mode;
        }

        @Override
        void doJob(Worker w, Cont<Fiber<A>> k) {
            FiberImpl<?> current = (FiberImpl<?>) k.fiber();
            FiberImpl<A> child = new FiberImpl<>(job, w.engine(), mode == StartMode.CHILD ? current : null,
                    mode == StartMode.FORGET);
            w.fiberStarted();
            boolean childFirst = w.engine().runtimeChoosesOrder();
            // a leaf run at once is asked to cancel after its run, which saves the link's fence
            FiberImpl<?> leafParent = null;
            if (current != null) {
                if (mode != StartMode.CHILD) {
                    child.inheritBindings(current);
                } else if (childFirst && job instanceof Pure.Leaf) {
                    current.addLeafChild(child);
                    leafParent = current;
                } else {
                    current.addChild(w, child); // the constructor took over the parent's bindings
                }
            }
            // Child first (Cilk's work-first rule): the starter's continuation waits on the local stack,
            // where an idle worker can take it, and the child runs now on this stack (its steps spend the
            // same fuel, so depth stays bounded). A parent that starts many short children thus never
            // piles them up: each finishes before the next starts unless another worker takes over.
            k.setResumeValue(child);
            if (!childFirst) {
                // the driver chooses who runs first: queue both (the simulator's seed 0 runs the child first)
                w.push(child);
                w.push(k);
                return;
            }
            if (mode != StartMode.CHILD && job instanceof DirectJob) {
                // A direct body stays on the worker that first runs it, so a detached one starts on the
                // worker the engine places it on (through that worker's inbox); the starter goes on here.
                Worker home = w.engine().placeDetachedBody(w);
                if (home != w) {
                    home.pushInbox(child);
                    w.push(k);
                    return;
                }
            }
            w.push(k);
            child.doWork(w);
            if (leafParent != null) {
                leafParent.checkLeafChild(w, child);
            }
            if (((Object) k instanceof ContinuationBody<?> || w.hasHalfFuel()) && w.popIfTop(k)) {
                // The child ended or waits having queued nothing: the starter's continuation is the loop's
                // next item, so it runs now instead of after a trip through the loop. Its steps spend this
                // item's fuel (depth stays bounded), so a stackless starter does it only while half is left:
                // the next child then has room to end without a bounce, which would leave the starter under
                // it to be shared, a wake-up for one step of work. A direct body's start().await() is still
                // on this thread inside await, which completes now rather than yield to the loop only to be
                // resumed by that very item (done here, not in await, so that await's compiled frame, which
                // every waiting body's stack keeps, stays small).
                k.doWork(w);
            }
        }
    }

    /** Joins a fiber: its value ({@code asOutcome == false}) or its outcome. */
    static final class Join<A, R> extends Job<R> {
        private final FiberImpl<A> target;
        private final boolean asOutcome;

        Join(FiberImpl<A> target, boolean asOutcome) {
            this.target = target;
            this.asOutcome = asOutcome;
        }

        @Override
        @SuppressWarnings("unchecked")
        void doJob(Worker w, Cont<R> k) {
            if (target.engine != w.engine()) {
                Trampoline.fail(w, k, new IllegalArgumentException(
                        "cannot join " + target + ": it runs on a different scheduler (" + target.engine + ")"));
                return;
            }
            if (target.isDone()) {
                finishJoin(w, k);
                return;
            }
            FiberImpl<?> self = (FiberImpl<?>) k.fiber();
            if (self == target) {
                Trampoline.fail(w, k, new IllegalStateException("a fiber cannot join itself: " + target));
                return;
            }
            if (self.cancelPending()) {
                Trampoline.fail(w, k, CancelSignal.INSTANCE);
                return;
            }
            Cont<?> waiter = asOutcome ? new OutcomeCont<>((Cont<Outcome<A>>) (Cont<?>) k) : k;
            if (target.tryAddJoiner(waiter)) {
                self.checkCancelWhileBlocked(w, target);
            } else {
                finishJoin(w, k);
            }
        }

        /**
         * A plain join of a fiber of {@code w}'s engine that has succeeded gives its value at once (fork/join
         * mostly joins finished children); the state's volatile read orders the value's.
         */
        @Override
        <B> Object doJobNow(Worker w, Sequence.Step<R, B> step, Cont<B> k) {
            if (!asOutcome && target.engine == w.engine() && target.stateNow() == FiberImpl.SUCCEEDED) {
                return target.valueNow();
            }
            return super.doJobNow(w, step, k);
        }

        @SuppressWarnings("unchecked")
        private void finishJoin(Worker w, Cont<R> k) {
            if (asOutcome) {
                Trampoline.succeed(w, k, (R) target.outcomeNow());
                return;
            }
            int state = target.stateNow();
            FiberBase<?> self = k.fiber();
            if (state == FiberImpl.SUCCEEDED) {
                Trampoline.succeed(w, k, (R) target.valueNow());
            } else if (state == FiberImpl.CANCELLED && self != null && self.cancelPending()) {
                // A cancelled fiber joining a child its cancellation has already ended (it reached the join
                // after its last bind step's check): it ends cancelled, as it would had it waited.
                Trampoline.fail(w, k, CancelSignal.INSTANCE);
            } else {
                Trampoline.fail(w, k, target.failureForJoiner());
            }
        }
    }

    /** Waits for a fiber's outcome on behalf of {@code k}; the joined fiber sets {@link #resumeValue()}. */
    static final class OutcomeCont<A> extends Cont<Outcome<A>> {
        private final Cont<Outcome<A>> k;

        OutcomeCont(Cont<Outcome<A>> k) {
            super(k.fiber());
            this.k = k;
        }

        @Override
        public void doCont(Worker w, Outcome<A> o) {
            Trampoline.succeed(w, k, o);
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            Trampoline.fail(w, k, e);
        }
    }

    /** {@code fiber.cancel()}: request, then wait for the outcome. */
    static final class CancelFiber extends Job<Void> {
        private final FiberImpl<?> target;

        CancelFiber(FiberImpl<?> target) {
            this.target = target;
        }

        @Override
        void doJob(Worker w, Cont<Void> k) {
            if (k.fiber() == target) {
                Trampoline.fail(w, k, new IllegalStateException(
                        "a fiber cannot cancel itself and wait for its end; use Job.cancelled()"));
                return;
            }
            target.requestCancel(w);
            new Join<>(target, true).doJob(w, new DiscardCont<>(k));
        }
    }

    /** Continues {@code k} with null, ignoring the value. */
    static final class DiscardCont<A> extends Cont<A> {
        private final Cont<Void> k;

        DiscardCont(Cont<Void> k) {
            super(k.fiber());
            this.k = k;
        }

        @Override
        public void doCont(Worker w, A a) {
            Trampoline.succeed(w, k, null);
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            Trampoline.fail(w, k, e);
        }
    }

    /** {@code Job.cancelled()}: cancels the running fiber. */
    static final class SelfCancel<A> extends Job<A> {
        @Override
        void doJob(Worker w, Cont<A> k) {
            FiberImpl<?> self = (FiberImpl<?>) k.fiber();
            self.requestCancel(w);
            if (self.cancelPending()) {
                Trampoline.fail(w, k, CancelSignal.INSTANCE);
            } else {
                Trampoline.succeed(w, k, null); // masked: takes effect when the uncancelable region ends
            }
        }
    }

    /** {@code Job.self()}: the running fiber's handle. */
    static final class Self extends Job<Fiber<?>> {
        static final Self INSTANCE = new Self();

        @Override
        void doJob(Worker w, Cont<Fiber<?>> k) {
            Trampoline.succeed(w, k, (FiberImpl<?>) k.fiber());
        }
    }

    /** {@code Job.random()}: the running fiber's generator, made on first use. */
    static final class Random extends Job<RandomGenerator> {
        static final Random INSTANCE = new Random();

        @Override
        void doJob(Worker w, Cont<RandomGenerator> k) {
            FiberExtras x = ((FiberImpl<?>) k.fiber()).extras();
            if (x.random == null) {
                FiberObserver o = w.engine().observer();
                RandomGenerator seeded = o == null ? null : o.newRandom();
                x.random = seeded != null ? seeded : new SplittableRandom();
            }
            Trampoline.succeed(w, k, x.random);
        }
    }

    /** {@code job.named(name)}: names the running fiber for reports, then runs the job. */
    static final class Named<A> extends Job<A> {
        private final Job<A> job;
        private final String name;

        Named(Job<A> job, String name) {
            this.job = job;
            this.name = name;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            if (k.fiber() != null) {
                k.fiber().engine().nameFiber(k.fiber(), name);
                dev.spindle.internal.run.FiberObserver o = k.fiber().engine().observer();
                if (o != null) {
                    o.named(k.fiber(), name);
                }
            }
            job.doJob(w, k);
        }
    }
}
