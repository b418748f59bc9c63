package dev.spindle.sync;

import dev.spindle.Job;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.JobImpl;

/**
 * The acquisition step of one run of a bracket ({@code Mutex.withLock}, {@code Semaphore.withPermit}): it
 * remembers whether the lock or permit was granted to this run, so that the run's finalizer gives back
 * exactly what was taken.
 *
 * <pre>
 * Why a step object
 * =================
 *   bracket(body) = defer(step = new step; acquire(step).then(body).ensure(releaseIfGranted(step)))
 *   The finalizer covers the acquisition too. Three cases:
 *     cancelled while waiting  the waiter is withdrawn, nothing granted, the finalizer does nothing
 *     granted, then cancelled  (at the cancellation point between acquire and body, or before the woken
 *                              fiber runs) the finalizer releases the grant
 *     granted, body ends       the finalizer releases
 *   A hand-over marks the grant in wake(), on the releasing thread, before it resumes the fiber; the
 *   finalizer runs on the fiber after that resumption, so a plain field suffices.
 * </pre>
 */
abstract class GrantStep extends JobImpl<Void> {
    /** Whether the resource was granted to this run (see the class comment for who writes it). */
    boolean granted;

    /** Gives the resource back. */
    abstract void release();

    /** Called by the run's finalizer: gives back the resource if this run got it. */
    final void releaseIfGranted() {
        if (granted) {
            granted = false;
            release();
        }
    }

    /** The queue entry for {@code k} waiting on behalf of this step. */
    final Waiter<Void> waiterFor(Cont<Void> k, Engine engine) {
        return new Granted(this, k, engine);
    }

    /** {@code step.then(body).ensure(release if granted)}, a fresh step each run. */
    static <A> Job<A> bracket(java.util.function.Supplier<GrantStep> steps, Job<A> body) {
        return Job.defer(() -> {
            GrantStep step = steps.get();
            return Bridge.job(step).then(body).ensure(Job.run(step::releaseIfGranted));
        });
    }

    /** A waiting step: the hand-over marks the grant before resuming the fiber. */
    private static final class Granted extends Waiter<Void> {
        private final GrantStep step;
        private final Cont<Void> k;
        private final Engine engine;

        Granted(GrantStep step, Cont<Void> k, Engine engine) {
            super(k.fiber);
            this.step = step;
            this.k = k;
            this.engine = engine;
        }

        @Override
        void wake(Object v) {
            step.granted = true;
            k.value = null;
            engine.submit(k);
        }

        @Override
        public void doCont(Worker w, Void ignored) {
            Waits.succeed(w, k, null);
        }

        /** Withdrawn by cancellation before any grant: nothing is held. */
        @Override
        public void doHandle(Worker w, Throwable e) {
            Waits.fail(w, k, e);
        }
    }
}
