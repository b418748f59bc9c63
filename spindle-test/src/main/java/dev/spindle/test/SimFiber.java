package dev.spindle.test;

import dev.spindle.Fiber;
import dev.spindle.Outcome;
import java.util.concurrent.CompletableFuture;

/**
 * A job started in a {@link Simulation} by {@link Simulation#start}: it has been scheduled, and runs only
 * while the simulation is driven ({@link Simulation#runUntilIdle}, {@link Simulation#advance},
 * {@link #outcome}, {@link #join}, another {@code run}).
 *
 * <pre>{@code
 * SimFiber<String> reply = sim.start(server.request("ping"));
 * sim.advance(Duration.ofMillis(5));
 * assertFalse(reply.isDone());                 // the server answers after 10 ms
 * assertEquals("pong", reply.join());          // drives the simulation until it is done
 * }</pre>
 *
 * @param <A> the type of the job's value
 */
public final class SimFiber<A> {
    private final Simulation simulation;
    private final Fiber<A> fiber;
    /** Completed by the fiber's end, never cancelled by this class: its state is the fiber's outcome. */
    private final CompletableFuture<A> future;

    SimFiber(Simulation simulation, Fiber<A> fiber) {
        this.simulation = simulation;
        this.fiber = fiber;
        this.future = fiber.toCompletableFuture();
    }

    /** {@return the fiber's handle, to join or cancel it from jobs running in the simulation} */
    public Fiber<A> fiber() {
        return fiber;
    }

    /**
     * Requests cancellation of the fiber (and its descendants) and drives the simulation until it has
     * finished, its finalizers included, as {@link Fiber#cancel()} does inside a job; {@link #outcome()}
     * then tells how it ended (a fiber that finished first, or inside an uncancelable region, keeps its
     * outcome). Cancelling a finished fiber does nothing.
     *
     * @throws DeadlockException if a finalizer of the fiber can never finish
     */
    public void cancel() {
        fiber.toCompletableFuture().cancel(false); // requests the fiber's cancellation
        simulation.driveUntil(future::isDone);
    }

    /** {@return whether the job has ended (in any way)} Does not drive the simulation. */
    public boolean isDone() {
        return future.isDone();
    }

    /**
     * Drives the simulation until the job ends and gives its outcome.
     *
     * @return how the job ended
     * @throws DeadlockException if it never can end
     */
    public Outcome<A> outcome() {
        simulation.driveUntil(future::isDone);
        return switch (future.state()) {
            case SUCCESS -> Outcome.success(future.resultNow());
            case FAILED -> Outcome.failure(future.exceptionNow());
            default -> Outcome.cancelled();
        };
    }

    /**
     * Drives the simulation until the job ends; gives its value or rethrows its failure, like
     * {@link Simulation#run}.
     *
     * @return the job's value
     * @throws DeadlockException if it never can end
     */
    public A join() {
        return outcome().getOrThrow();
    }

    @Override
    public String toString() {
        return "SimFiber[" + (future.isDone() ? "done" : "pending") + "]";
    }
}
