package dev.spindle.sync;

import dev.spindle.Direct;
import dev.spindle.Job;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.JobImpl;
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
     *   borrow:  free > 0 ? pop a place : link a waiter
     *   return:  waiters ? hand the place (item, or null when not preserved) to the oldest : push it
     *   INV: free > 0 implies no waiters; lent + in flight + free == capacity.
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
    private final WaitQueue waiters = new WaitQueue(this);
    /** Stack of free places: items or null (empty). Guarded by the queue lock. */
    private Object[] places;
    /** Number of free places. Written under the queue lock; volatile reads. */
    private volatile int free;
    private final Job<Loan<T>> borrow = Bridge.job(new BorrowBody(null));

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

    /** A bounded pool of at most {@code capacity} items made by {@code factory} and kept between loans. */
    public static <T> Pool<T> bounded(int capacity, Supplier<? extends T> factory) {
        return Pool.<T>builder(factory).bounded(capacity).build();
    }

    /** An unbounded pool of items made by {@code factory} and kept between loans. */
    public static <T> Pool<T> unbounded(Supplier<? extends T> factory) {
        return Pool.<T>builder(factory).build();
    }

    /** A builder of pools of items made by {@code factory} (unbounded and {@link Policy#PRESERVE} by default). */
    public static <T> Builder<T> builder(Supplier<? extends T> factory) {
        return new Builder<>(Objects.requireNonNull(factory, "factory"));
    }

    /**
     * A job that borrows an item, waiting (bounded pools) until one is free. Cancellable while it waits.
     * Release the loan when done, or use {@link #withItem(Function)}.
     */
    public Job<Loan<T>> borrow() {
        return borrow;
    }

    /**
     * Borrows an item, blocking the calling thread (bounded pools) until one is free.
     *
     * @throws InterruptedException if the thread is interrupted while waiting (it then holds nothing)
     * @throws IllegalStateException if it would have to wait on a thread that runs fibers: use
     *     {@link #borrow()} inside jobs
     */
    public Loan<T> borrowBlocking() throws InterruptedException {
        if (Direct.inDirectBody()) {
            return Direct.await(borrow());
        }
        Object place;
        waiters.lock();
        if (hasPlaceLocked()) {
            place = popLocked();
            waiters.unlock();
            return lend(place);
        }
        waiters.unlock();
        Waits.checkMayBlock(this, "Pool.borrowBlocking()", "borrow()");
        ThreadWaiter t = new ThreadWaiter();
        waiters.lock();
        if (hasPlaceLocked()) {
            place = popLocked();
            waiters.unlock();
        } else {
            waiters.addLocked(t);
            waiters.unlock();
            place = t.await(waiters, -1, true);
        }
        return lend(place);
    }

    /** Borrows an item if one is free (always, for an unbounded pool), else returns null; never waits. */
    public Loan<T> tryBorrow() {
        if (capacity > 0 && free == 0) {
            return null;
        }
        waiters.lock();
        if (!hasPlaceLocked()) {
            waiters.unlock();
            return null;
        }
        Object place = popLocked();
        waiters.unlock();
        return lend(place);
    }

    /**
     * A job that borrows an item, runs the job {@code use} makes from it, and returns the item when that job
     * ends in any way. Cancellation at any point leaves the pool as it found it.
     */
    public <B> Job<B> withItem(Function<? super T, ? extends Job<B>> use) {
        Objects.requireNonNull(use, "use");
        return Job.defer(() -> {
            BorrowBody step = new BorrowBody(new Borrowed<>());
            return Bridge.job(step).flatMap(loan -> use.apply(loan.get()))
                    .ensure(Job.run(step.borrowed::releaseIfLent));
        });
    }

    /** Maximum number of items lent at once; {@link Integer#MAX_VALUE} for an unbounded pool. */
    public int capacity() {
        return capacity > 0 ? capacity : Integer.MAX_VALUE;
    }

    /**
     * Places free now: a bounded pool's loans possible without waiting, or an unbounded pool's kept items.
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
        Cont<?> next = capacity > 0 ? waiters.pollLocked() : null;
        Engine engine = waiters.plainEngineLocked();
        if (next == null) {
            pushLocked(place);
        }
        assert free == 0 || waiters.isEmpty() : "INV: free > 0 implies no waiters";
        waiters.unlock();
        if (next != null) {
            WaitQueue.resume(next, place, engine);
        }
    }

    /** {@link #borrow()}, and the acquisition step of {@link #withItem} (then {@code borrowed} is set). */
    private final class BorrowBody extends JobImpl<Loan<T>> {
        private final Borrowed<T> borrowed;

        BorrowBody(Borrowed<T> borrowed) {
            this.borrowed = borrowed;
        }

        @Override
        public void doJob(Worker w, Cont<Loan<T>> k) {
            if (Waits.cancelled(w, k)) {
                return;
            }
            waiters.lock();
            if (hasPlaceLocked()) {
                Object place = popLocked();
                waiters.unlock();
                complete(w, k, place, borrowed);
                return;
            }
            waiters.blockLocked(w, new BorrowWait(k, w.engine(), borrowed));
        }
    }

    /** Makes the loan for {@code place} and continues {@code k} with it (or with the factory's failure). */
    private void complete(Worker w, Cont<Loan<T>> k, Object place, Borrowed<T> borrowed) {
        Loan<T> loan;
        try {
            loan = lend(place);
        } catch (Throwable e) {
            Waits.fail(w, k, e);
            return;
        }
        if (borrowed != null) {
            borrowed.loan = loan;
        }
        Waits.succeed(w, k, loan);
    }

    /** A fiber waiting for a place; the hand-over gives it one (an item or null). */
    private final class BorrowWait extends Waiter<Object> {
        private final Cont<Loan<T>> k;
        private final Engine engine;
        private final Borrowed<T> borrowed;

        BorrowWait(Cont<Loan<T>> k, Engine engine, Borrowed<T> borrowed) {
            super(k.fiber);
            this.k = k;
            this.engine = engine;
            this.borrowed = borrowed;
        }

        @Override
        void wake(Object place) {
            value = place;
            engine.submit(this); // the loan (maybe the factory) is made on the borrower's scheduler
        }

        @Override
        public void doCont(Worker w, Object place) {
            value = null;
            if (fiber != null && fiber.cancelPending()) {
                returnPlace(place); // cancelled since the hand-over: pass the place on, hold nothing
                Waits.failCancelled(w, k);
                return;
            }
            complete(w, k, place, borrowed);
        }

        /** Withdrawn by cancellation before any hand-over: nothing taken. */
        @Override
        public void doHandle(Worker w, Throwable e) {
            Waits.fail(w, k, e);
        }
    }

    /** What one run of {@link #withItem} borrowed, for its finalizer (written and read on its fiber). */
    private static final class Borrowed<T> {
        Loan<T> loan;

        void releaseIfLent() {
            Loan<T> l = loan;
            if (l != null) {
                loan = null;
                l.release();
            }
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
         * The borrowed item.
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

        /** Whether the loan was released. */
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
         * @throws IllegalArgumentException if {@code capacity < 1}
         */
        public Builder<T> bounded(int capacity) {
            if (capacity < 1) {
                throw new IllegalArgumentException("Pool capacity must be at least 1, was " + capacity);
            }
            this.capacity = capacity;
            return this;
        }

        /** Never makes borrowers wait (the default). */
        public Builder<T> unbounded() {
            this.capacity = -1;
            return this;
        }

        /** Whether items are kept between loans (default {@link Policy#PRESERVE}). */
        public Builder<T> policy(Policy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** An action run on every returned item, on the releasing side: a reset, or a disposal. */
        public Builder<T> onReturn(Consumer<? super T> action) {
            this.onReturn = Objects.requireNonNull(action, "action");
            return this;
        }

        /** A name shown by {@code toString} (and so in deadlock reports). */
        public Builder<T> name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /** Creates the pool. */
        public Pool<T> build() {
            return new Pool<>(this);
        }
    }
}
