package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Durations;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.Else;
import dev.spindle.internal.select.Pick;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A selectable event (Concurrent ML's event, Hopac's {@code Alt}): a job that can also be offered as one
 * alternative among several, of which {@link #choose} commits to exactly one.
 *
 * <pre>{@code
 * Channel<Request> requests = new Channel<>("requests");
 * Channel<Void> shutdown = new Channel<>("shutdown");
 * Job<String> step = Alt.choose(
 *         requests.take().wrap(r -> "served " + r),
 *         shutdown.take().wrap(v -> "stopping"),
 *         Alt.after(Duration.ofSeconds(1)).wrap(v -> "idle"));
 * }</pre>
 *
 * <p>Running an alt as a job is a choose of that one alternative. Alternatives are instantiated in
 * argument order; when one is ready at once the later ones are not instantiated at all (their guards do
 * not run and their nacks never exist). A losing alternative has no effect: it takes no message, gives
 * none, fills nothing. {@link #wrap} and {@link #afterJob} run only after their alternative has been
 * committed to; {@link #guard} and {@link #withNack} run each time the alternative is instantiated, and
 * a {@code withNack}'s nack becomes available iff its alternative was instantiated and not committed to.
 *
 * <p>Cancellation meets selection: a fiber cancelled while blocked in a choose withdraws from every
 * alternative and all of their nacks fire. An operation either commits or is cancelled, never both: a
 * cancelled take consumes no message, a cancelled give delivers none, and a value handed over is never
 * dropped (if the commit came first, the choose completes and the cancellation is seen at the next step).
 *
 * @implNote A choose allocates one commit record (a {@code Pick}), one small node per alternative that has
 *     to wait, and a continuation per {@code wrap}. The primitives' own operations run as plain jobs
 *     without a pick, and a blocked plain take or read queues its continuation itself.
 * @param <A> the type of the value the alternative produces
 */
public abstract class Alt<A> extends Job<A> {
    /** Only Spindle defines alternatives; users compose them. */
    Alt() {
    }

    /**
     * Instantiates this alternative as number {@code i} of the choose whose instantiation {@code e}
     * continues: either commits (picks {@code e.pick} and continues {@code k}), or registers waiters that
     * share {@code e.pick} and calls {@code e.tryElse(w, i + n)} with {@code n} the numbers it used, or
     * finds the pick already decided and calls {@code e.pick.instantiated(w)}. User code that fails goes to
     * {@code e.pick.fail}. Never throws.
     */
    abstract void tryAlt(Worker w, int i, Cont<A> k, Else e);

    /**
     * Whether all of this alternative's work happens at its commit: true for the primitive waits and for
     * wraps and chooses of such. Then {@link #timeout} is one more alternative and takes nothing when it
     * times out. A guard's or withNack's set-up job and an afterJob's job run outside the commit, and a
     * time limit must be able to cancel them, so for those {@code timeout} stays a race.
     */
    boolean endsAtCommit() {
        return true;
    }

    /** Runs this alternative as a choose of one. Primitives override this with allocation-free paths. */
    @Override
    void doJob(Worker w, Cont<A> k) {
        Pick pk = Pick.begin(w, k, this);
        if (pk != null) {
            tryAlt(w, 0, k, pk);
        }
    }

    // ---------------------------------------------------------------- choice

    /**
     * {@return an alternative that commits to exactly one of {@code alts}: the first, in argument order, that
     * is ready when instantiated, else the first whose partner arrives} {@code choose()} never commits.
     *
     * @param <A> the type of the chosen value
     * @param alts the alternatives, in order of preference
     * @throws NullPointerException if {@code alts} or any of its elements is null
     */
    @SafeVarargs
    public static <A> Alt<A> choose(Alt<? extends A>... alts) {
        Objects.requireNonNull(alts, "alts");
        Alt<?>[] copy = new Alt<?>[alts.length];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = alts[i];
        }
        return new Choose<>(Choose.checked(copy));
    }

    /**
     * {@link #choose(Alt[])} over a list, in list order.
     *
     * @param <A> the type of the chosen value
     * @param alts the alternatives, in order of preference
     * @return an alternative that commits to exactly one of {@code alts}
     * @throws NullPointerException if {@code alts} or any of its elements is null
     */
    public static <A> Alt<A> choose(List<? extends Alt<? extends A>> alts) {
        Objects.requireNonNull(alts, "alts");
        return new Choose<>(Choose.checked(alts.toArray(new Alt<?>[0])));
    }

    /**
     * {@return an alternative that is always ready and gives {@code value}}
     *
     * @param <A> the type of the value
     * @param value the value it gives (may be null)
     */
    public static <A> Alt<A> always(A value) {
        return new AltCombinators.Always<>(value);
    }

    /**
     * {@return an alternative that is never ready: as a job it waits until cancelled}
     *
     * @param <A> the type of the value it would give
     */
    public static <A> Alt<A> never() {
        return new Choose<>(Choose.<A>checked(new Alt<?>[0]));
    }

    /**
     * {@return an alternative that becomes ready once {@code duration} has passed since it was instantiated,
     * on the scheduler's clock} When another alternative wins, its timer is removed at once.
     *
     * @param duration how long after instantiation it becomes ready
     * @throws IllegalArgumentException if {@code duration} is negative
     */
    public static Alt<Void> after(Duration duration) {
        return new AltCombinators.After(Durations.nonNegativeNanos(duration, "Alt.after duration"));
    }

    /**
     * {@return an alternative that becomes ready at {@code instant} on the scheduler's clock
     * ({@link Job#now()}; virtual in the simulator), marl's {@code wait_until}: reckoned when it is
     * instantiated, and ready at once for an instant already past} When another alternative wins, its timer
     * is removed at once.
     *
     * @param instant when it becomes ready, on the scheduler's clock
     */
    public static Alt<Void> at(Instant instant) {
        return new AtInstant(Objects.requireNonNull(instant, "instant"));
    }

    /**
     * {@return an alternative that runs {@code setUp} each time it is instantiated and then offers the
     * alternative that job gives} A failure of {@code setUp} fails the whole choose.
     *
     * @param <A> the type of the value
     * @param setUp the job, run at each instantiation, that gives the alternative to offer
     */
    public static <A> Alt<A> guard(Job<? extends Alt<A>> setUp) {
        return new AltCombinators.Guard<>(Objects.requireNonNull(setUp, "setUp"));
    }

    /**
     * {@return an alternative that, each time it is instantiated, creates a fresh nack, runs the job
     * {@code setUp.apply(nack)} and offers the alternative that job gives} The nack is an alternative that
     * becomes ready iff this alternative was instantiated and another one was committed to (or the choose was
     * cancelled or failed): the way for a server to learn that a client gave up on a request.
     *
     * <p>When the choose commits to another alternative, the nack becomes ready at once, in the committing
     * party's thread. When the choosing fiber is cancelled, the fiber is withdrawn at once, but its nacks
     * become ready when it next runs, on its own scheduler, as it unwinds the choose: a server waiting on the
     * nack sees it either way; code that polls the nack right after cancelling may not see it yet.
     *
     * <pre>{@code
     * Alt<Lock> acquire = Alt.withNack(nack -> {
     *     Channel<Lock> reply = new Channel<>();
     *     return lockServer.give(new Request(reply, nack)).map(v -> reply.take());
     * });
     * }</pre>
     *
     * @param <A> the type of the value
     * @param setUp makes, from the nack, the job that gives the alternative to offer
     */
    public static <A> Alt<A> withNack(Function<? super Alt<Void>, ? extends Job<? extends Alt<A>>> setUp) {
        return new AltCombinators.WithNack<>(Objects.requireNonNull(setUp, "setUp"));
    }

    // ---------------------------------------------------------------- after commit

    /**
     * {@return this alternative with {@code f} applied to its value after it has been committed to (CML's
     * {@code wrap}; {@link #map} is the same)}
     *
     * @param <B> the type of the new value
     * @param f the function applied to the committed value
     */
    public final <B> Alt<B> wrap(Function<? super A, ? extends B> f) {
        return new AltCombinators.Wrap<>(this, Objects.requireNonNull(f, "f"));
    }

    /** Same as {@link #wrap}: the post-commit function, keeping this an {@code Alt}. */
    @Override
    public final <B> Alt<B> map(Function<? super A, ? extends B> f) {
        return wrap(f);
    }

    /**
     * {@return this alternative followed, after it has been committed to, by the job {@code f} makes from its
     * value} No cancellation point separates the commit from the start of that job.
     *
     * @param <B> the type of the job's value
     * @param f makes the job to run from the committed value
     */
    public final <B> Alt<B> afterJob(Function<? super A, ? extends Job<B>> f) {
        return new AltCombinators.AfterJob<>(this, Objects.requireNonNull(f, "f"));
    }
}
