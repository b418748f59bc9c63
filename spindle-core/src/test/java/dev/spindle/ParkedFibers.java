package dev.spindle;

import dev.spindle.internal.run.Engine;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;

/**
 * Fibers parked in a primitive for a Lincheck scenario: each is started on a single-threaded engine and
 * run until it waits, and then nobody drives that engine until {@link #close()}. So the scenario's
 * operations meet fibers that really wait (linked waiters, a blocked choose), can cancel them from their
 * own threads, and see exactly the effects that a wake or a cancellation has before the fiber runs again;
 * what a fiber does once resumed happens in {@code close()}, after which the test checks its outcome.
 *
 * <pre>{@code
 * ParkedFibers parked = new ParkedFibers();
 * int borrower = parked.park(pool.borrow(), () -> pool.waiterCount() == 1);
 * ... // operations: a release hands the place to the borrower, parked.cancel(borrower) withdraws it
 * parked.close();                                   // runs the borrower to its end
 * Outcome<?> o = parked.outcome(borrower);
 * }</pre>
 */
public final class ParkedFibers implements AutoCloseable {
    private final Queue<Throwable> uncaught = new ConcurrentLinkedQueue<>();
    // A bare engine, not a Scheduler: a scheduler's watchdog, MBean registration and JFR events would run
    // outside Lincheck's exploration in every invocation, in threads it does not manage.
    private final Engine engine = new Engine("lincheck-parked", 1, false, uncaught::add);
    private final List<FiberImpl<?>> fibers = new ArrayList<>();

    /**
     * Starts {@code job} as a fiber and runs the engine until {@code parked} holds (the fiber waits);
     * gives the fiber's number, counting from 0.
     */
    public int park(Job<?> job, BooleanSupplier parked) {
        FiberImpl<?> f = new FiberImpl<>(job, engine, null, true);
        fibers.add(f);
        engine.externalFiberStarted();
        engine.pushGlobal(f);
        engine.await(parked::getAsBoolean);
        return fibers.size() - 1;
    }

    /**
     * Requests cancellation of fiber {@code i} from the calling thread: a waiting fiber is withdrawn from
     * its primitive at once and runs its cancellation in {@link #close()}.
     */
    public void cancel(int i) {
        fibers.get(i).requestCancel(null);
    }

    /** Whether fiber {@code i} has ended (before {@link #close()}: never, unless it did not wait). */
    public boolean isDone(int i) {
        return fibers.get(i).isDone();
    }

    private boolean allDone() {
        for (FiberImpl<?> f : fibers) {
            if (!f.isDone()) {
                return false;
            }
        }
        return true;
    }

    /** How fiber {@code i} ended; call after {@link #close()}. */
    public Outcome<?> outcome(int i) {
        return fibers.get(i).outcomeNow();
    }

    /**
     * Runs every fiber to its end on the calling thread (each must have been woken or cancelled, or this
     * never returns) and fails if a failure reached the engine's uncaught handler.
     */
    @Override
    public void close() {
        engine.await(this::allDone);
        engine.close();
        Throwable first = uncaught.poll();
        if (first != null) {
            throw new AssertionError("uncaught failure in a parked fiber", first);
        }
    }
}
