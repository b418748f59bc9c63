package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Worker;
import java.util.concurrent.Callable;

/**
 * {@code Direct.job(body)} on the virtual-thread backend: each run starts the body on a new virtual thread
 * ({@link DirectRun}); the fiber waits without holding a worker until the body has ended.
 */
final class DirectJob<A> extends Job<A> {
    private final Callable<? extends A> body;

    DirectJob(Callable<? extends A> body) {
        this.body = body;
    }

    @Override
    void doJob(Worker w, Cont<A> k) {
        Engine engine = w.engine();
        if (engine.isDriven()) {
            Jobs.fail(w, k, new UnsupportedOperationException(
                    "Job.direct bodies run on virtual threads here (backend " + Direct.backend()
                            + "), which the deterministic simulator cannot schedule; the continuation backend"
                            + " needs the JVM flag " + DirectBackend.FLAG));
            return;
        }
        FiberCore<?> self = (FiberCore<?>) k.fiber;
        if (self.cancelPending()) {
            Jobs.fail(w, k, Jobs.CancelSignal.INSTANCE);
            return;
        }
        DirectRun<A> run = new DirectRun<>(body, k, engine, self);
        self.blockOn(run);
        run.start();
        // No cancellation check here: the body observes cancellation at its awaits and ends by itself.
    }
}
