package dev.spindle.internal.run;

/**
 * The failure that carries cancellation up a fiber's continuation chain. It is not a user-visible
 * exception: recovery combinators let it pass, finalizers run on it, and the fiber's root turns it into
 * {@code Outcome.Cancelled}. A singleton without stack trace.
 */
public final class CancelSignal extends Throwable {
    private static final long serialVersionUID = 1L;

    /** The one instance. */
    public static final CancelSignal INSTANCE = new CancelSignal();

    private CancelSignal() {
        super("cancelled", null, false, false);
    }

    /** Whether {@code e} is the cancel signal. */
    public static boolean is(Throwable e) {
        return e == INSTANCE;
    }
}
