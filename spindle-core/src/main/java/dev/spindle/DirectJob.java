package dev.spindle;

import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import java.util.concurrent.Callable;

/**
 * {@code Direct.job(body)}: each run starts the body on the selected backend, as a continuation on this
 * worker ({@link ContinuationBody}) or on a new virtual thread ({@link VirtualThreadBody}); the fiber waits without
 * holding a worker until the body has ended.
 */
final class DirectJob<A> extends Job<A> {
    private final Callable<? extends A> body;

    DirectJob(Callable<? extends A> body) {
        this.body = body;
    }

    @Override
    void doJob(Worker w, Cont<A> k) {
        Engine engine = w.engine();
        if (!Direct.canRunOn(engine)) {
            Trampoline.fail(w, k, new UnsupportedOperationException(
                    "Job.direct bodies run on virtual threads in this JVM, which the deterministic simulator"
                            + " cannot schedule; run with the JVM flag " + DirectBackend.FLAG
                            + " for the continuation backend (" + DirectBackend.UNAVAILABLE_BECAUSE + ")"));
            return;
        }
        FiberImpl<?> self = (FiberImpl<?>) k.fiber();
        if (self.cancelPending()) {
            Trampoline.fail(w, k, CancelSignal.INSTANCE);
            return;
        }
        if (DirectBackend.SELECTED == Direct.Backend.CONTINUATION) {
            ContinuationBody<A> run = new ContinuationBody<>(body, k, w);
            self.blockOn(run);
            run.step(w);
        } else {
            VirtualThreadBody<A> run = new VirtualThreadBody<>(body, k, engine);
            self.blockOn(run);
            run.start();
        }
        // No cancellation check here: the body observes cancellation at its awaits and ends by itself.
    }
}
