package dev.spindle;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * What a fiber keeps only once it uses it: its {@link FiberLocal} bindings, its {@link Job#random()}
 * generator and, once it has had several live children at a time, the debt that paces the sweeps of its
 * retired ones. A fiber that uses none of them never has one, so its record stays the same size; the first use
 * moves the fiber's parent link in here (see {@code FiberImpl.parentOrExtras}).
 *
 * <p>Owned by the fiber's own code (one step at a time, handed between workers through the work queues,
 * which order the plain fields); only {@link #parent}, final, is read by other threads.
 */
final class FiberExtras {
    /** The fiber's parent, or null: what the fiber's parent link held before this replaced it. */
    final FiberImpl<?> parent;
    /** The fiber's local bindings: immutable, so a child takes them over by reference. */
    Bindings bindings = Bindings.EMPTY;
    /** The fiber's generator, made on first use. */
    RandomGenerator random;
    /** Children pushed while others were live since the last sweep of retired ones (FiberImpl.pushChild). */
    int sweepDebt;

    FiberExtras(FiberImpl<?> parent) {
        this.parent = parent;
    }

    /**
     * An immutable map from fiber locals to values, compared by identity: a handful of locals is the usual
     * case, so a flat array searched linearly beats hashing. Binding copies it.
     */
    static final class Bindings {
        static final Bindings EMPTY = new Bindings(new Object[0]);

        /** Keys at even indices, their values at the odd index after. */
        private final Object[] entries;

        private Bindings(Object[] entries) {
            this.entries = entries;
        }

        /** Whether {@code local} is bound here; its value is then {@link #get}'s. */
        int indexOf(FiberLocal<?> local) {
            for (int i = 0; i < entries.length; i += 2) {
                if (entries[i] == local) {
                    return i + 1;
                }
            }
            return -1;
        }

        Object valueAt(int index) {
            return entries[index];
        }

        /** These bindings with {@code local} bound to {@code value} (replacing its binding, if any). */
        Bindings with(FiberLocal<?> local, Object value) {
            int i = indexOf(local);
            Object[] copy;
            if (i >= 0) {
                copy = entries.clone();
                copy[i] = value;
            } else {
                copy = Arrays.copyOf(entries, entries.length + 2);
                copy[entries.length] = local;
                copy[entries.length + 1] = value;
            }
            return new Bindings(copy);
        }

        boolean isEmpty() {
            return entries.length == 0;
        }
    }
}
