package dev.spindle.internal.run;

/**
 * Continuing a continuation in bounded stack: each call spends one step of the worker's budget and, when
 * it is spent, bounces the continuation through the worker's stack instead of calling it.
 */
public final class Trampoline {
    private Trampoline() {
    }

    /** Delivers {@code a} to {@code k}, bouncing ({@code k} itself is the work item) when the budget is spent. */
    public static <A> void succeed(Worker w, Cont<A> k, A a) {
        if (w.outOfFuel()) {
            k.setResumeValue(a);
            w.bounce(k);
        } else {
            k.doCont(w, a);
        }
    }

    /** Delivers {@code e} to {@code k}, bouncing through the work stack when the budget is spent. */
    public static void fail(Worker w, Cont<?> k, Throwable e) {
        if (w.outOfFuel()) {
            w.bounce(new FailWork(k, e));
        } else {
            k.doHandle(w, e);
        }
    }

    /** Fails {@code k} with the cancel signal (its fiber's cancellation was observed). */
    public static void failCancelled(Worker w, Cont<?> k) {
        fail(w, k, CancelSignal.INSTANCE);
    }
}
