package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import java.util.Objects;

/**
 * A value scoped to fibers (Cats Effect's {@code IOLocal}, the JDK's {@code ScopedValue}): the execution
 * context that code deep in a call chain reads without it being passed down, such as a request id, a
 * tenant, or a dependency to inject.
 *
 * <pre>{@code
 * FiberLocal<String> requestId = new FiberLocal<>("none");
 * Job<String> log = requestId.get().map(id -> "[" + id + "] handled");
 * String line = scheduler.run(requestId.with("req-42", log));      // "[req-42] handled"
 * String outside = scheduler.run(requestId.get());                 // "none"
 * }</pre>
 *
 * <ul>
 *   <li>{@link #get()} gives the value bound in the running fiber, or the initial value where nothing is
 *       bound. In a direct body: {@code local.get().await()}.
 *   <li>{@link #with} binds a value for the extent of one job: the binding ends, and the previous one is
 *       back, when that job ends in any way (success, failure or cancellation). Bindings nest.
 *   <li>A fiber started with {@link Job#start()}, {@link Job#startDetached()} or {@link Job#forget()} (and so
 *       the children of {@code Job.race}, {@code all} and {@code any}) starts with the bindings its starter
 *       has at that moment; later bindings in either fiber are invisible to the other, and to siblings. Root
 *       fibers ({@link Scheduler#run}, {@code submit}, {@code execute}) start with none.
 * </ul>
 *
 * @implNote A fiber that never binds a local costs nothing: its record does not grow (bindings live in a
 *     side object made on a fiber's first binding or {@link Job#random()}), and starting a fiber reads one
 *     field of its starter. A binding copies the fiber's small array of bindings; a read searches it.
 * @param <T> the type of the value
 */
public final class FiberLocal<T> {
    private final T initial;
    private final String name;

    /**
     * A local whose value is {@code initial} (which may be null) wherever nothing is bound.
     *
     * @param initial the value where nothing is bound
     */
    public FiberLocal(T initial) {
        this("fiber-local", initial);
    }

    /**
     * A named local whose value is {@code initial} wherever nothing is bound; the name is for toString.
     *
     * @param name the name shown by {@code toString}
     * @param initial the value where nothing is bound (may be null)
     */
    public FiberLocal(String name, T initial) {
        this.name = Objects.requireNonNull(name, "name");
        this.initial = initial;
    }

    /** {@return the value this local has where nothing is bound} */
    public T initial() {
        return initial;
    }

    /** {@return a job that gives the value bound in the fiber running it, or {@link #initial()} where none is} */
    public Job<T> get() {
        return new Get<>(this);
    }

    /**
     * {@return a job that runs {@code job} with this local bound to {@code value} in the running fiber, and
     * restores the previous binding when {@code job} ends, however it ends} Fibers {@code job} starts inherit
     * the binding.
     *
     * @param <A> the type of the job's value
     * @param value the value bound while {@code job} runs (may be null)
     * @param job the job to run with the binding
     */
    public <A> Job<A> with(T value, Job<A> job) {
        return new With<>(this, value, Objects.requireNonNull(job, "job"));
    }

    @Override
    public String toString() {
        return "FiberLocal[" + name + "]";
    }

    /** The value of {@code local} in {@code fiber}'s bindings. */
    @SuppressWarnings("unchecked")
    private T valueIn(FiberImpl<?> fiber) {
        FiberExtras x = fiber == null ? null : fiber.extrasOrNull();
        if (x != null) {
            int i = x.bindings.indexOf(this);
            if (i >= 0) {
                return (T) x.bindings.valueAt(i);
            }
        }
        return initial;
    }

    /** {@code local.get()}. */
    private static final class Get<T> extends Job<T> {
        private final FiberLocal<T> local;

        Get(FiberLocal<T> local) {
            this.local = local;
        }

        @Override
        void doJob(Worker w, Cont<T> k) {
            Trampoline.succeed(w, k, local.valueIn((FiberImpl<?>) k.fiber()));
        }
    }

    /** {@code local.with(value, job)}: binds, runs the job, restores. */
    private static final class With<T, A> extends Job<A> {
        private final FiberLocal<T> local;
        private final T value;
        private final Job<A> job;

        With(FiberLocal<T> local, T value, Job<A> job) {
            this.local = local;
            this.value = value;
            this.job = job;
        }

        @Override
        void doJob(Worker w, Cont<A> k) {
            if (w.outOfFuel()) { // nested bindings must not grow the stack without bound
                w.bounce(new JobSupport.JobWork<>(this, k));
                return;
            }
            FiberExtras x = ((FiberImpl<?>) k.fiber()).extras();
            FiberExtras.Bindings saved = x.bindings;
            x.bindings = saved.with(local, value);
            job.doJob(w, new Restore<>(k, x, saved));
        }
    }

    /** Puts the bindings from before a {@link With} back, then continues. */
    private static final class Restore<A> extends Cont<A> {
        private final Cont<A> k;
        private final FiberExtras extras;
        private final FiberExtras.Bindings saved;

        Restore(Cont<A> k, FiberExtras extras, FiberExtras.Bindings saved) {
            super(k.fiber());
            this.k = k;
            this.extras = extras;
            this.saved = saved;
        }

        @Override
        public void doCont(Worker w, A a) {
            extras.bindings = saved;
            Trampoline.succeed(w, k, a);
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            extras.bindings = saved;
            Trampoline.fail(w, k, e);
        }
    }
}
