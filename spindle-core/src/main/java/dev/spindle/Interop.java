package dev.spindle;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.FailWork;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/** Waiting for things outside Spindle: {@code CompletionStage}s and blocking calls on virtual threads. */
final class Interop {
    private Interop() {
    }

    /**
     * A fiber waiting for a completion that arrives from a foreign thread. Exactly one of the completion
     * and a cancellation claims it (CAS on {@code claimed}); the winner resumes the continuation.
     */
    abstract static class ExternalWait<A> implements Blocker {
        private final Cont<A> k;
        private final Engine engine;
        /** 0 until claimed by completion or cancellation. CAS. */
        private volatile int claimed;

        ExternalWait(Cont<A> k, Engine engine) {
            this.k = k;
            this.engine = engine;
        }

        /** Blocks {@code k}'s fiber here; the subclass then starts the external work. */
        final boolean block(Worker w) {
            FiberImpl<?> self = (FiberImpl<?>) k.fiber();
            if (self.cancelPending()) {
                Trampoline.fail(w, k, CancelSignal.INSTANCE);
                return false;
            }
            self.blockOn(this);
            return true;
        }

        /** Called after the external work started: withdraws at once if cancellation arrived. */
        final void blocked(Worker w) {
            ((FiberImpl<?>) k.fiber()).checkCancelWhileBlocked(w, this);
        }

        /** Delivers the external result (from any thread) unless cancellation claimed the wait. */
        final void complete(A value, Throwable error) {
            if (!CLAIMED.compareAndSet(this, 0, 1)) {
                return;
            }
            if (error == null) {
                k.setResumeValue(value);
                engine.enqueue(k);
            } else {
                engine.enqueue(new FailWork(k, unwrap(error)));
            }
        }

        @Override
        public final Cont<?> removeWaiter(FiberBase<?> fiber) {
            // one wait per object, so the mask it was entered under is visible (see Blocker)
            if (fiber == k.fiber() && fiber.cancelPending() && CLAIMED.compareAndSet(this, 0, 1)) {
                try {
                    onCancelled();
                } catch (UnsupportedOperationException notCancellable) {
                    // a stage may refuse toCompletableFuture(): it is left to complete; its result is dropped
                } catch (Throwable e) {
                    engine.reportUncaught(e); // the waiter is withdrawn all the same (it is claimed)
                }
                return k;
            }
            return null;
        }

        /** Called when cancellation won: stop the external work if possible. */
        abstract void onCancelled();

        private static Throwable unwrap(Throwable e) {
            return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        }

        private static final VarHandle CLAIMED;

        static {
            try {
                CLAIMED = MethodHandles.lookup().findVarHandle(ExternalWait.class, "claimed", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /** {@code Job.fromFuture(supplier)}: asks for the stage each run and waits for it. */
    static final class FromFuture<A> extends Job<A> {
        private final Supplier<? extends CompletionStage<? extends A>> stages;

        FromFuture(Supplier<? extends CompletionStage<? extends A>> stages) {
            this.stages = stages;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            CompletionStage<? extends A> stage;
            try {
                stage = stages.get();
                if (stage == null) {
                    throw new NullPointerException("Job.fromFuture: the supplier returned null");
                }
            } catch (Throwable e) {
                Trampoline.fail(w, k, e);
                return;
            }
            StageWait<A> wait = new StageWait<>(k, w.engine(), stage);
            if (wait.block(w)) {
                stage.whenComplete(wait::complete);
                wait.blocked(w);
            }
        }
    }

    static final class StageWait<A> extends ExternalWait<A> {
        private final CompletionStage<? extends A> stage;

        StageWait(Cont<A> k, Engine engine, CompletionStage<? extends A> stage) {
            super(k, engine);
            this.stage = stage;
        }

        @Override
        void onCancelled() {
            stage.toCompletableFuture().cancel(false);
        }

        @Override
        public String describe() {
            return "completion of " + stage;
        }
    }

    /** {@code Job.blocking(callable)}: runs the call on a new virtual thread; the fiber waits. */
    static final class Blocking<A> extends Job<A> {
        private final Callable<? extends A> body;

        Blocking(Callable<? extends A> body) {
            this.body = body;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            if (!w.engine().driver().allowsOtherThreads()) {
                Trampoline.fail(w, k, new UnsupportedOperationException(
                        "Job.blocking runs code on a real thread, which the deterministic simulator cannot"
                                + " schedule; test that code outside the simulation or inject a Job instead"));
                return;
            }
            ThreadWait<A> wait = new ThreadWait<>(k, w.engine());
            if (wait.block(w)) {
                wait.thread = Thread.ofVirtual().name("spindle-blocking").start(() -> {
                    A value;
                    try {
                        value = body.call();
                    } catch (Throwable e) {
                        wait.complete(null, e);
                        return;
                    }
                    wait.complete(value, null);
                });
                wait.blocked(w);
            }
        }
    }

    static final class ThreadWait<A> extends ExternalWait<A> {
        /** The virtual thread running the call; set right after it starts. */
        volatile Thread thread;

        ThreadWait(Cont<A> k, Engine engine) {
            super(k, engine);
        }

        @Override
        void onCancelled() {
            Thread t = thread;
            if (t != null) {
                t.interrupt();
            }
        }

        @Override
        public String describe() {
            return "blocking call on " + thread;
        }
    }
}
