package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.Else;

/**
 * {@code Alt.choose(alts)}: instantiates its alternatives one after another through a cursor ({@link Next})
 * until one commits or all are registered. Nested chooses number their alternatives consecutively within
 * the outermost one.
 *
 * @param <A> the type of the chosen value
 */
final class Choose<A> extends Alt<A> {
    /** The alternatives, in order. Never modified. */
    private final Alt<A>[] alts;

    Choose(Alt<A>[] alts) {
        this.alts = alts;
    }

    @Override
    boolean endsAtCommit() {
        for (Alt<A> a : alts) {
            if (!a.endsAtCommit()) {
                return false;
            }
        }
        return true;
    }

    /** Checks for null elements and narrows {@code Alt<? extends A>} to {@code Alt<A>}. */
    @SuppressWarnings("unchecked")
    static <A> Alt<A>[] checked(Alt<?>[] alts) {
        for (int i = 0; i < alts.length; i++) {
            if (alts[i] == null) {
                throw new NullPointerException("Alt.choose: alternative " + i + " is null");
            }
        }
        // Sound: an alternative of a subtype delivers a value the continuation of A accepts.
        return (Alt<A>[]) alts;
    }

    @Override
    void tryAlt(Worker w, int i, Cont<A> k, Else e) {
        if (alts.length == 0) {
            e.tryElse(w, i);
        } else {
            new Next<>(alts, k, e).tryElse(w, i);
        }
    }

    /** The cursor over one instantiation of a choose's alternatives. */
    static final class Next<A> extends Else {
        private final Alt<A>[] alts;
        private final Cont<A> k;
        private final Else outer;
        /** Next alternative to instantiate. Touched only by the instantiating fiber. */
        private int position;

        Next(Alt<A>[] alts, Cont<A> k, Else outer) {
            super(outer.pick);
            this.alts = alts;
            this.k = k;
            this.outer = outer;
        }

        @Override
        public void tryElse(Worker w, int i) {
            if (pick.isPicked()) {
                pick.instantiated(w); // decided meanwhile: stop instantiating
            } else if (position == alts.length) {
                outer.tryElse(w, i);
            } else if (w.outOfFuel()) {
                w.bounce(new Bounce(this, i)); // long chooses instantiate in bounded stack
            } else {
                alts[position++].tryAlt(w, i, k, this);
            }
        }
    }

    /** Continues an instantiation after the worker unwound its stack. */
    static final class Bounce extends Work {
        private final Else e;
        private final int i;

        Bounce(Else e, int i) {
            this.e = e;
            this.i = i;
        }

        @Override
        public void doWork(Worker w) {
            e.tryElse(w, i);
        }

        @Override
        public void doHandle(Worker w, Throwable error) {
            e.pick.fail(w, error);
        }
    }

    /** Alternatives listed by toString before the rest are only counted. */
    private static final int DESCRIBED = 8;

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("choose(");
        for (int i = 0; i < alts.length && i < DESCRIBED; i++) {
            b.append(i == 0 ? "" : ", ").append(alts[i]);
        }
        if (alts.length > DESCRIBED) {
            b.append(", ... ").append(alts.length - DESCRIBED).append(" more");
        }
        return b.append(')').toString();
    }
}
