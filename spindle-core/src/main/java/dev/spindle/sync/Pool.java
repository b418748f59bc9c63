package dev.spindle.sync;

import dev.spindle.Alt;
import dev.spindle.Direct;
import dev.spindle.Job;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.select.LockedWait;
import dev.spindle.internal.select.LockedWaitQueue;
import dev.spindle.internal.select.Waiter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A pool of reusable items that fibers and threads borrow and give back (marl's {@code BoundedPool} and
 * {@code UnboundedPool}). A {@link #borrow()} gives a {@link Loan}; {@link Loan#release()} returns its item.
 * A bounded pool lends at most {@code capacity} items at once and makes borrowers wait (without holding a
 * worker) for a release; an unbounded pool never waits and makes new items as needed.
 *
 * <pre>{@code
 * Pool<ByteBuffer> buffers = Pool.builder(() -> ByteBuffer.allocateDirect(64 * 1024))
 *         .bounded(8)                            // at most 8 buffers lent at once
 *         .onReturn(ByteBuffer::clear)           // reset before the next loan
 *         .name("io buffers")
 *         .build();
 * Job<Integer> read = buffers.withItem(buf -> Job.blocking(() -> channel.read(buf)));   // returned after
 *
 * try (Pool.Loan<ByteBuffer> loan = buffers.borrowBlocking()) {                          // from a thread
 *     use(loan.get());
 * }
 * }</pre>
 *
 * <p>Policies (marl's {@code PoolPolicy}): {@link Policy#PRESERVE} makes items lazily, when a loan needs one
 * and none is free, and keeps them between loans; {@link Policy#RECONSTRUCT} makes a fresh item for every
 * loan and drops it when it comes back. The {@code onReturn} action, if any, runs on every returned item:
 * to reset it for reuse, or to dispose of it. Items are made and reset outside the pool's lock, on the
 * borrowing and the releasing side respectively; a factory that fails (or returns null) fails that borrow
 * and gives its place back.
 *
 * <p>Borrowers wait in arrival order. A borrower cancelled (or interrupted) while waiting takes nothing.
 * {@link #withItem(Function)} returns the item when its job ends in any way; with bare {@code borrow()} a
 * fiber cancelled after the loan was made still holds it.
 *
 * @param <T> the type of the items
 */
public final class Pool<T> {
    /*
     * Implementation overview
     * =======================
     * A bounded pool has capacity places. A place is lent (a Loan holds it), in flight (handed to a waiter
     * that has not yet made its loan), or free. Free places sit in a stack: an item (PRESERVE, made
     * earlier) or null (an empty place whose borrower must first call the factory). Returned items are
     * pushed on top, so made items are lent before empty places and the pool makes no more items than the
     * peak of concurrent loans. An unbounded pool keeps only made items (PRESERVE) or nothing (RECONSTRUCT).
     *
     * State (bounded; guarded by the queue lock)
     *   free | waiters | meaning
     *   f > 0| none    | f places free
     *   0    | none    | all places lent
     *   0    | some    | all places lent, borrowers waiting in arrival order
     *
     *   borrow:  free > 0 ? pop a place (in a choose: only if its pick commits, in the same critical
     *            section) : link a waiter
     *   return:  a waiter it can commit ? hand the place (item, or null when not preserved) to it : push it
     *   INV: free > 0 implies no live waiters; lent + in flight + free == capacity.
     */

    /** Whether items live on between loans. */
    public enum Policy {
        /** Items are made when first needed and kept for later loans (after {@code onReturn}). */
        PRESERVE,
        /** Every loan gets a new item from the factory; returned items are dropped (after {@code onReturn}). */
        RECONSTRUCT
    }

    private final String name;
    private final Supplier<? extends T> factory;
    private final Consumer<? super T> onReturn;
    private final boolean preserve;
    /** Maximum concurrent loans, or -1 when unbounded. */
    private final int capacity;
    private final LockedWaitQueue waiters = new LockedWaitQueue(this);
    /** Stack of free places: items or null (empty). Guarded by the queue lock. */
    private Object[] places;
    /** Number of free places. Written under the queue lock; volatile reads. */
    private volatile int free;
    /** Takes a place (an item, or null when the borrower must make one). */
    private final TakePlace takePlace = new TakePlace();
    private final Alt<Loan<T>> borrow = Bridge.alt(takePlace).wrap(this::lend);

    private Pool(Builder<T> b) {
        this.name = b.name;
        this.factory = b.factory;
        this.onReturn = b.onReturn;
        this.preserve = b.policy == Policy.PRESERVE;
        this.capacity = b.capacity;
        if (capacity > 0) {
            places = new Object[capacity];
            free = capacity;
        } else {
            places = new Object[8];
            free = 0;
        }
    }

    /**
     * {@return a bounded pool of at most {@code capacity} items made by {@code factory} and kept between loans}
     *
     * @param <T> the type of the items
     * @param capacity the most items lent at once
     * @param factory makes an item when none is free
     */
    public static <T> Pool<T> bounded(int capacity, Supplier<? extends T> factory) {
        return Pool.<T>builder(factory).bounded(capacity).build();
    }

    /**
     * {@return an unbounded pool of items made by {@code factory} and kept between loans}
     *
     * @param <T> the type of the items
     * @param factory makes an item when none is free
     */
    public static <T> Pool<T> unbounded(Supplier<? extends T> factory) {
        return Pool.<T>builder(factory).build();
    }

    /**
     * {@return a builder of pools of items made by {@code factory} (unbounded and {@link Policy#PRESERVE} by default)}
     *
     * @param <T> the type of the items
     * @param factory makes an item when none is free
     */
    public static <T> Builder<T> builder(Supplier<? extends T> factory) {
        return new Builder<>(Objects.requireNonNull(factory, "factory"));
    }

    /**
     * {@return an alternative that borrows an item, waiting (bounded pools) until one is free} Cancellable
     * while it waits. Release the loan when done, or use {@link #withItem(Function)}. In a {@link Alt#choose}
     * it takes a place only when committed to (the item is made, if it must be, after the commit).
     */
    public Alt<Loan<T>> borrow() {
        return borrow;
    }

    /**
     * Borrows an item, blocking the calling thread (bounded pools) until one is free.
     *
     * @return the loan of the borrowed item, to release when done
     * @throws InterruptedException if the thread is interrupted while waiting (it then holds nothing)
     * @throws IllegalStateException if it would have to wait on a thread that runs fibers: use
     *     {@link #borrow()} inside jobs
     */
    public Loan<T> borrowBlocking() throws InterruptedException {
        if (Direct.inDirectBody()) {
            return Direct.await(borrow());
        }
        Object place = takePlace.tryNow(null);
        if (place == LockedWait.NOT_READY) {
            Waits.checkMayBlock(this, "Pool.borrowBlocking()", "borrow()");
            place = takePlace.awaitThread(-1, true);
        }
        return lend(place);
    }

    /**
     * Borrows an item if one is free (always, for an unbounded pool); never waits.
     *
     * @return the loan of the borrowed item, or null when none is free
     */
    public Loan<T> tryBorrow() {
        if (capacity > 0 && free == 0) {
            return null;
        }
        Object place = takePlace.tryNow(null);
        return place == LockedWait.NOT_READY ? null : lend(place);
    }

    /**
     * {@return a job that borrows an item, runs the job {@code use} makes from it, and returns the item when
     * that job ends in any way} Cancellation at any point leaves the pool as it found it.
     *
     * @param <B> the type of the value of the job {@code use} makes
     * @param use makes the job that uses the item
     */
    public <B> Job<B> withItem(Function<? super T, ? extends Job<B>> use) {
        Objects.requireNonNull(use, "use");
        return Job.bracket(borrow, loan -> use.apply(loan.get()), loan -> Job.run(loan::release));
    }

    /** {@return the maximum number of items lent at once} {@link Integer#MAX_VALUE} for an unbounded pool. */
    public int capacity() {
        return capacity > 0 ? capacity : Integer.MAX_VALUE;
    }

    /**
     * Places free now: a bounded pool's loans possible without waiting, or an unbounded pool's kept items.
     *
     * @return the places free now
     */
    public int available() {
        return free;
    }

    /** Waiters currently linked (for tests). */
    int waiterCount() {
        return waiters.waiting();
    }

    @Override
    public String toString() {
        return Waits.label(this, "Pool", name) + "[" + (capacity > 0 ? "capacity=" + capacity : "unbounded")
                + ", " + (preserve ? "preserve" : "reconstruct") + ", free=" + free
                + ", waiters=" + waiters.waiting() + "]";
    }

    // ---------------------------------------------------------------- places (caller holds the lock)

    /** Whether a borrow can proceed without waiting. */
    private boolean hasPlaceLocked() {
        return capacity < 0 || free > 0;
    }

    /** Takes a free place: an item, or null when the borrower must make one. */
    private Object popLocked() {
        int f = free;
        if (f == 0) {
            return null; // unbounded with nothing kept
        }
        Object place = places[--f];
        places[f] = null;
        free = f;
        return place;
    }

    private void pushLocked(Object place) {
        int f = free;
        if (f == places.length) {
            places = Arrays.copyOf(places, f * 2); // unbounded only (a bounded stack never overflows)
        }
        places[f] = place;
        free = f + 1;
    }

    // ---------------------------------------------------------------- lending and returning

    /** Makes the loan for a place taken from the pool; on a failing factory gives the place back. */
    @SuppressWarnings("unchecked")
    private Loan<T> lend(Object place) {
        if (place != null) {
            return new Loan<>(this, (T) place);
        }
        T item;
        try {
            item = factory.get();
            if (item == null) {
                throw new NullPointerException("the factory of " + this + " returned null");
            }
        } catch (Throwable e) {
            returnPlace(null);
            throw e;
        }
        return new Loan<>(this, item);
    }

    /** A loan's item comes back. */
    private void giveBack(T item) {
        Object place = preserve ? item : null;
        Throwable failure = null;
        if (onReturn != null) {
            try {
                onReturn.accept(item);
            } catch (Throwable e) {
                failure = e;
                place = null; // state unknown: do not lend it again
            }
        }
        if (capacity > 0 || place != null) {
            returnPlace(place);
        }
        if (failure instanceof RuntimeException r) {
            throw r;
        } else if (failure instanceof Error err) {
            throw err;
        } else if (failure != null) {
            throw new IllegalStateException("onReturn of " + this + " failed", failure);
        }
    }

    /** Puts a place back, or hands it to the oldest waiter. */
    private void returnPlace(Object place) {
        waiters.lock();
        Work next = capacity > 0 ? waiters.pollCommitted() : null;
        if (next == null) {
            pushLocked(place);
        }
        waiters.unlock();
        if (next != null) {
            Waiter.release(null, next, place);
        }
    }

    /**
     * Taking a place, in its three forms (a choose's alternative, a plain job, a thread's blocking call); the
     * loan is made from the place after the commit, on the borrower's side ({@link #lend}).
     */
    private final class TakePlace extends LockedWait<Object> {
        TakePlace() {
            super(waiters);
        }

        @Override
        protected boolean readyLocked(Object who) {
            return hasPlaceLocked();
        }

        @Override
        protected Object takeLocked(Object who) {
            return popLocked();
        }

        @Override
        public String toString() {
            return "borrow of " + Pool.this;
        }
    }

    /**
     * One borrowed item: {@link #get()} it, and {@link #release()} (or {@link #close()}) the loan to give it
     * back to its pool.
     *
     * <pre>{@code
     * try (Pool.Loan<StringBuilder> loan = builders.borrowBlocking()) {
     *     loan.get().append("hello");
     * }
     * }</pre>
     *
     * @param <T> the type of the item
     */
    public static final class Loan<T> implements AutoCloseable {
        private final Pool<T> pool;
        private final T item;
        /** 0 while lent, 1 once released. CAS. */
        private volatile int released;

        Loan(Pool<T> pool, T item) {
            this.pool = pool;
            this.item = item;
        }

        /**
         * {@return the borrowed item}
         *
         * @throws IllegalStateException if the loan was released (the item may be lent to someone else)
         */
        public T get() {
            if (released != 0) {
                throw new IllegalStateException("this loan was released: its item went back to " + pool);
            }
            return item;
        }

        /** Gives the item back to the pool. Later calls do nothing. */
        public void release() {
            if (RELEASED.compareAndSet(this, 0, 1)) {
                pool.giveBack(item);
            }
        }

        /** {@link #release()}, for try-with-resources. */
        @Override
        public void close() {
            release();
        }

        /** {@return whether the loan was released} */
        public boolean isReleased() {
            return released != 0;
        }

        @Override
        public String toString() {
            return "Loan from " + Waits.label(pool, "Pool", pool.name) + (released != 0 ? " [released]" : "");
        }

        private static final VarHandle RELEASED;

        static {
            try {
                RELEASED = MethodHandles.lookup().findVarHandle(Loan.class, "released", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /**
     * Configures a {@link Pool}.
     *
     * <pre>{@code
     * Pool<MessageDigest> digests = Pool.builder(Sha256::newDigest).bounded(4).onReturn(MessageDigest::reset).build();
     * }</pre>
     *
     * @param <T> the type of the items
     */
    public static final class Builder<T> {
        private final Supplier<? extends T> factory;
        private int capacity = -1;
        private Policy policy = Policy.PRESERVE;
        private Consumer<? super T> onReturn;
        private String name;

        private Builder(Supplier<? extends T> factory) {
            this.factory = factory;
        }

        /**
         * Lends at most {@code capacity} items at once; further borrowers wait.
         *
         * @param capacity the most items lent at once
         * @return this builder
         * @throws IllegalArgumentException if {@code capacity < 1}
         */
        public Builder<T> bounded(int capacity) {
            if (capacity < 1) {
                throw new IllegalArgumentException("Pool capacity must be at least 1, was " + capacity);
            }
            this.capacity = capacity;
            return this;
        }

        /**
         * Never makes borrowers wait (the default).
         *
         * @return this builder
         */
        public Builder<T> unbounded() {
            this.capacity = -1;
            return this;
        }

        /**
         * Sets whether items are kept between loans (default {@link Policy#PRESERVE}).
         *
         * @param policy what becomes of a returned item
         * @return this builder
         */
        public Builder<T> policy(Policy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Sets an action run on every returned item, on the releasing side: a reset, or a disposal.
         *
         * @param action the action, given the returned item
         * @return this builder
         */
        public Builder<T> onReturn(Consumer<? super T> action) {
            this.onReturn = Objects.requireNonNull(action, "action");
            return this;
        }

        /**
         * Sets a name shown by {@code toString} (and so in deadlock reports).
         *
         * @param name the pool's name
         * @return this builder
         */
        public Builder<T> name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Creates the pool.
         *
         * @return the new pool, with no item made yet
         */
        public Pool<T> build() {
            return new Pool<>(this);
        }
    }
}
