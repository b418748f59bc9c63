package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Worker;

/**
 * A joiner that only needs to know that a fiber finished (it reads the outcome from the fiber itself):
 * resumed without a value and without allocating a failure. Belongs to no fiber.
 *
 * @param <A> the joined fiber's value type
 */
abstract class Callback<A> extends Cont<A> {
    Callback() {
        super(null);
    }

    /** Runs when the joined fiber has finished. */
    abstract void onDone(Worker w);

    @Override
    public final void doCont(Worker w, A ignored) {
        onDone(w);
    }

    @Override
    public final void doHandle(Worker w, Throwable ignored) {
        onDone(w);
    }
}
