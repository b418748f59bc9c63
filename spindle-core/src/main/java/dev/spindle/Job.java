package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Durations;
import dev.spindle.internal.run.StepTail;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * A lazy description of a computation that may wait: building one does nothing; running it (with
 * {@link Scheduler#run}, or as a step of another job) runs it, and running it twice runs it twice.
 *
 * <pre>{@code
 * Job<Integer> answer = Job.of(() -> 40)
 *         .flatMap(x -> Job.sleep(Duration.ofMillis(10)).map(v -> x + 2))
 *         .recover(e -> -1);
 * try (Scheduler s = Scheduler.create()) {
 *     int v = s.run(answer); // 42
 * }
 * }</pre>
 *
 * <p>An exception thrown by code given to any combinator becomes a failure of that job; it never kills a
 * worker thread. Every {@code flatMap} step is a cancellation point. Chains and loops of any length run in
 * bounded stack space.
 *
 * @implNote Jobs are continuation-passing objects (Hopac's {@code Job}): running one calls
 *     {@code doJob(worker, continuation)}; a bind step allocates one continuation and nothing else,
 *     and none when its first job succeeds at once (a finished join, a channel operation that meets its
 *     partner, a send, a filled {@code IVar}, a queued message, a call).
 * @param <A> the type of the job's value
 */
public abstract class Job<A> {
    static {
        dev.spindle.internal.run.Bridge.install(BridgeImpl.INSTANCE);
    }

    /** Only Spindle defines jobs; users compose them. */
    Job() {
    }

    /** Runs this job on worker {@code w}, eventually delivering its outcome to {@code k} (exactly once). */
    abstract void doJob(Worker w, Cont<A> k);

    /** What {@link #doJobNow} returns when the job has not succeeded at once. */
    static final Object LATER = StepTail.LATER;

    /**
     * Runs this job as the first part of the sequencing step {@code step}, whose continuation is {@code k}:
     * returns the job's value if it succeeds at once, having called no continuation; otherwise returns
     * {@link #LATER}, having either handed the job {@code step}'s continuation or failed {@code k}. Jobs that
     * often succeed at once override this, and then the step allocates no continuation object.
     */
    <B> Object doJobNow(Worker w, Sequence.Step<A, B> step, Cont<B> k) {
        doJob(w, step.contAfter(k));
        return LATER;
    }

    /** {@link #doJob} for a job whose {@link #doJobNow} holds its whole logic: runs it with no step. */
    @SuppressWarnings("unchecked")
    final void doJobThroughNow(Worker w, Cont<A> k) {
        Object a = doJobNow(w, null, k);
        if (a != LATER) {
            Trampoline.succeed(w, k, (A) a);
        }
    }

    // ---------------------------------------------------------------- constructors

    /**
     * {@return a job that succeeds with {@code value} (which may be null)}
     *
     * @param <A> the type of the value
     * @param value the job's value
     */
    public static <A> Job<A> result(A value) {
        return new Pure.Result<>(value);
    }

    /** {@return a job that succeeds with no value (null)} */
    public static Job<Void> unit() {
        return Pure.UNIT;
    }

    /**
     * {@return a job that fails with {@code error}}
     *
     * @param <A> the type of the value it never gives
     * @param error the job's failure
     */
    public static <A> Job<A> failure(Throwable error) {
        return new Pure.Fail<>(Objects.requireNonNull(error, "error"));
    }

    /**
     * {@return a job that calls {@code body} each time it runs; what it throws becomes the job's failure}
     *
     * @param <A> the type of the value
     * @param body the code to call, once per run
     */
    public static <A> Job<A> of(Callable<? extends A> body) {
        return new Pure.Call<>(Objects.requireNonNull(body, "body"));
    }

    /**
     * {@return a job that runs {@code action} each time it runs}
     *
     * @param action the code to run, once per run
     */
    public static Job<Void> run(Runnable action) {
        Objects.requireNonNull(action, "action");
        return new Pure.Call<>(() -> {
            action.run();
            return null;
        });
    }

    /**
     * {@return a job whose body is ordinary (blocking) Java code; inside it, {@link #await()} on any job
     * suspends only this fiber} See {@link Direct} for backends, failures, cancellation and pinning.
     *
     * <pre>{@code
     * Job<Integer> j = Job.direct(() -> Job.result(40).await() + Job.of(() -> 2).await());
     * }</pre>
     *
     * @param <A> the type of the body's value
     * @param body the code to run in the fiber, called once per run of the job
     */
    public static <A> Job<A> direct(Callable<? extends A> body) {
        return Direct.job(body);
    }

    /**
     * {@return a job that asks {@code factory} for the job to run, each time it runs}
     *
     * @param <A> the type of the value
     * @param factory makes the job to run, once per run
     */
    public static <A> Job<A> defer(Supplier<? extends Job<A>> factory) {
        return new Pure.Defer<>(Objects.requireNonNull(factory, "factory"), "Job.defer: the supplier returned null");
    }

    /** {@return a job that lets other ready work run before it continues} */
    public static Job<Void> yieldNow() {
        return TimeJobs.YieldNow.INSTANCE;
    }

    /**
     * {@return a job that waits for {@code duration} without holding a worker} Cancellable: a cancelled
     * sleeper wakes at once and its timer is removed.
     *
     * @param duration how long to wait
     * @throws IllegalArgumentException if {@code duration} is negative
     */
    public static Job<Void> sleep(Duration duration) {
        return new TimeJobs.Sleep(Durations.nonNegativeNanos(duration, "sleep duration"));
    }

    /**
     * {@return a job that waits until {@code instant} on the scheduler's clock ({@link #now()}; virtual in
     * the simulator) without holding a worker, marl's {@code wait_until}: an instant already past (or now)
     * ends it at once} Cancellable like {@link #sleep}.
     *
     * @param instant when to wake, on the scheduler's clock
     */
    public static Job<Void> sleepUntil(Instant instant) {
        return new TimeJobs.SleepUntil(Objects.requireNonNull(instant, "instant"));
    }

    /**
     * {@return a job that gives the scheduler's current time: the only clock Spindle uses (the simulator's is
     * virtual)}
     */
    public static Job<Instant> now() {
        return TimeJobs.Now.INSTANCE;
    }

    /**
     * {@return a job that gives the handle of the fiber running it (Hopac's {@code Proc.self}): to hand to
     * another fiber that may join or cancel it, or to identify the current fiber} In a direct body, the
     * direct fiber.
     */
    public static Job<Fiber<?>> self() {
        return FiberJobs.Self.INSTANCE;
    }

    /**
     * {@return a job that gives the running fiber's random generator, the same one on every call in that
     * fiber: an ordinary unseeded generator in production; in the simulator, one seeded from the simulation's
     * seed (in the order fibers first ask), so that randomised code replays exactly under the same schedule}
     * Not thread-safe: use it in its fiber only. A fiber that never asks allocates nothing.
     */
    public static Job<RandomGenerator> random() {
        return FiberJobs.Random.INSTANCE;
    }

    /**
     * {@return a job that cancels the fiber running it: its finalizers run and it ends
     * {@link Outcome.Cancelled}} Inside an uncancelable region it takes effect when the region ends.
     *
     * @param <A> the type of the value it never gives
     */
    public static <A> Job<A> cancelled() {
        return new FiberJobs.SelfCancel<>();
    }

    /**
     * {@return a job that runs {@code job} with cancellation deferred: a cancellation requested meanwhile
     * takes effect when the region ends}
     *
     * @param <A> the type of the job's value
     * @param job the job to run uncancelable
     */
    public static <A> Job<A> uncancelable(Job<A> job) {
        return new Cleanup.Uncancelable<>(Objects.requireNonNull(job, "job"));
    }

    /**
     * Acquires a resource, uses it, and releases it. Once {@code acquire} has given a resource,
     * {@code release} runs for it exactly once, uncancelable, however {@code use} ends, and the job then ends
     * as {@code use} did; a failing release is handled as an {@link #ensure} finalizer's failure. A
     * cancellation that arrives after {@code acquire} committed, before {@code use} started, still releases
     * the resource ({@code use} is then not called): that is what {@code acquire.flatMap(r ->
     * use(r).ensure(release(r)))} cannot promise, since its bind step is a cancellation point.
     *
     * <p>{@code acquire} is cancelable while it waits, as any job: an alternative such as
     * {@code listener.accept()} or {@code channel.take()} cancelled there takes nothing, and nothing needs
     * releasing. The promise starts with the value {@code acquire} gives. A resource built in several steps
     * is acquired under {@link #uncancelable}: a cancellation that region defers then reaches {@code use}
     * too, and the resource is released.
     *
     * <pre>{@code
     * Job<Reply> reply = Job.bracket(connections.borrow(), loan -> ask(loan.get(), request),
     *         loan -> Job.run(loan::release));
     * }</pre>
     *
     * @param <R> the type of the resource
     * @param <A> the type of the value {@code use} gives
     * @param acquire gives the resource
     * @param use makes the job that uses the resource
     * @param release makes the job that releases the resource
     * @return a job that gives {@code use}'s value once the resource is released
     */
    public static <R, A> Job<A> bracket(Job<R> acquire, Function<? super R, ? extends Job<A>> use,
            Function<? super R, ? extends Job<Void>> release) {
        return new Cleanup.Bracket<>(Objects.requireNonNull(acquire, "acquire"), Objects.requireNonNull(use, "use"),
                Objects.requireNonNull(release, "release"));
    }

    /**
     * Runs {@code a} and {@code b} as child fibers; the first to end, in any way, decides: its value as
     * {@link Either.Left} or {@link Either.Right}, or its failure, or cancellation. The loser is cancelled,
     * and its finalizers have run before the race completes. A loser that succeeded anyway has its value
     * dropped; a connection among such values that no code has used yet is closed. So two alternatives
     * (a take and a receive, say) are better offered to {@link Alt#choose}, which commits exactly one.
     *
     * @param <A> the type of the first job's value
     * @param <B> the type of the second job's value
     * @param a the first job, {@link Either.Left} when it wins
     * @param b the second job, {@link Either.Right} when it wins
     * @return a job that gives the winner's value, or ends as the winner did
     */
    public static <A, B> Job<Either<A, B>> race(Job<A> a, Job<B> b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        List<Job<?>> both = List.of(a, b);
        @SuppressWarnings({"unchecked", "rawtypes"})
        Job<Either<A, B>> race = new Parallel(both, Parallel.Policy.FIRST);
        return race;
    }

    /**
     * Runs every job as a child fiber and gives their values in input order. The first failure cancels
     * the others and is the result (after they have finished); a cancelled child cancels the whole. An
     * empty list gives an empty list at once. Values of children that succeeded are dropped when the
     * whole fails, as a {@linkplain #race race}'s loser's are.
     *
     * @param <A> the type of the values
     * @param jobs the jobs to run
     * @return a job that gives the values, in the order of {@code jobs}
     */
    public static <A> Job<List<A>> all(List<? extends Job<? extends A>> jobs) {
        return new Parallel<>(checkedCopy(jobs, "jobs"), Parallel.Policy.ALL);
    }

    /**
     * Runs every job as a child fiber; the first success wins and the others are cancelled (the values of
     * any that succeeded too are dropped, as a {@linkplain #race race}'s loser's are). When all fail, fails
     * with the first failure with the others suppressed.
     *
     * @param <A> the type of the value
     * @param jobs the jobs to run; not empty
     * @return a job that gives the first success's value
     * @throws IllegalArgumentException if {@code jobs} is empty
     */
    public static <A> Job<A> any(List<? extends Job<? extends A>> jobs) {
        List<? extends Job<? extends A>> copy = checkedCopy(jobs, "jobs");
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("Job.any needs at least one job");
        }
        return new Parallel<>(copy, Parallel.Policy.ANY);
    }

    /**
     * {@return a job that waits for the stage {@code stage} supplies (asked anew each run) without holding a
     * worker} Cancelling the waiting fiber cancels the stage's future.
     *
     * @param <A> the type of the value
     * @param stage supplies the stage to wait for, once per run
     */
    public static <A> Job<A> fromFuture(Supplier<? extends CompletionStage<? extends A>> stage) {
        return new Interop.FromFuture<>(Objects.requireNonNull(stage, "stage"));
    }

    /**
     * {@return a job that runs blocking code on a new virtual thread while the fiber waits without holding a
     * worker} Cancelling the fiber interrupts the thread and does not wait for it.
     *
     * @param <A> the type of the value
     * @param body the blocking code, called once per run on a new virtual thread
     */
    public static <A> Job<A> blocking(Callable<? extends A> body) {
        return new Interop.Blocking<>(Objects.requireNonNull(body, "body"));
    }

    private static <T> List<T> checkedCopy(List<T> list, String what) {
        Objects.requireNonNull(list, what);
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) == null) {
                throw new NullPointerException(what + "[" + i + "] is null");
            }
        }
        return List.copyOf(list);
    }

    // ---------------------------------------------------------------- sequencing

    /**
     * Runs this job, then the job {@code f} makes from its value. A cancellation point.
     *
     * @param <B> the type of the next job's value
     * @param f makes the next job from this job's value
     * @return a job that gives the next job's value
     */
    public final <B> Job<B> flatMap(Function<? super A, ? extends Job<B>> f) {
        return new Sequence.Bind<>(this, Objects.requireNonNull(f, "f"));
    }

    /**
     * Runs this job and transforms its value with {@code f}. On an {@link Alt} the result is an Alt too.
     *
     * @param <B> the type of the new value
     * @param f the function applied to this job's value
     * @return a job that gives {@code f}'s result
     */
    public <B> Job<B> map(Function<? super A, ? extends B> f) {
        return new Sequence.MapJob<>(this, Objects.requireNonNull(f, "f"));
    }

    /**
     * Runs this job, then {@code next}, giving next's value. A cancellation point.
     *
     * @param <B> the type of the next job's value
     * @param next the job to run after this one
     * @return a job that gives {@code next}'s value
     */
    public final <B> Job<B> then(Job<B> next) {
        return new Sequence.Then<>(this, Objects.requireNonNull(next, "next"));
    }

    // ---------------------------------------------------------------- failures

    /**
     * Turns a failure of this job into a value. Cancellation is not a failure and is not recovered.
     *
     * @param handler makes the value from the failure
     * @return a job that gives this job's value, or {@code handler}'s for a failure
     */
    public final Job<A> recover(Function<? super Throwable, ? extends A> handler) {
        Objects.requireNonNull(handler, "handler");
        return new Recovery.Recover<>(this, e -> result(handler.apply(e)));
    }

    /**
     * Continues with the job {@code handler} makes from a failure of this job.
     *
     * @param handler makes the job to continue with from the failure
     * @return a job that gives this job's value, or the value of {@code handler}'s job for a failure
     */
    public final Job<A> recoverWith(Function<? super Throwable, ? extends Job<A>> handler) {
        return new Recovery.Recover<>(this, Objects.requireNonNull(handler, "handler"));
    }

    /**
     * Gives this job's success or failure as an {@link Outcome} and never fails. Cancellation of the
     * running fiber is not caught: it still cancels.
     *
     * @return a job that gives this job's outcome: its value or its failure
     */
    public final Job<Outcome<A>> attempt() {
        return new Recovery.Attempt<>(this);
    }

    /**
     * Runs {@code finalizer} after this job, whether it succeeds, fails or is cancelled: exactly once,
     * uncancelable, once the job has started; a fiber always starts its job, even when cancelled before its
     * first step, so a finalizer around the fiber's whole job always runs. A failing finalizer's exception is
     * added as suppressed to the job's failure, or becomes the failure when the job succeeded.
     *
     * @param finalizer the job to run after this one, however it ends
     * @return a job that ends as this one does, after {@code finalizer} has run
     */
    public final Job<A> ensure(Job<Void> finalizer) {
        return new Cleanup.Ensure<>(this, Objects.requireNonNull(finalizer, "finalizer"), false);
    }

    /**
     * Runs {@code finalizer} (uncancelable) only if this job is cancelled.
     *
     * @param finalizer the job to run on cancellation
     * @return a job that ends as this one does
     */
    public final Job<A> onCancel(Job<Void> finalizer) {
        return new Cleanup.Ensure<>(this, Objects.requireNonNull(finalizer, "finalizer"), true);
    }

    /**
     * Runs this job with a time limit: a race with {@link #sleep}; when the sleep wins this job is
     * cancelled (its finalizers run) and the result fails with {@link TimeoutException}.
     *
     * <p>When this job is an {@link Alt} whose work all happens at its commit (a take, a receive, a read,
     * an accept, and wraps and chooses of such), the limit is one more alternative instead:
     * {@code choose(this, after(limit))}, in the same fiber. Either the alternative commits and gives its
     * value, or the limit fails the job having taken nothing: a message handed over as the limit runs out
     * is never lost. A race could not promise that, since its loser may commit just as it is cancelled. An
     * alternative with a guard or an afterJob (a {@code writeAll}, a {@code connect}) is raced as any job, so
     * the limit bounds all of its work.
     *
     * @param limit how long this job may run
     * @return a job that gives this job's value, or fails with {@link TimeoutException} after {@code limit}
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    public final Job<A> timeout(Duration limit) {
        if (this instanceof Alt<A> alt && alt.endsAtCommit()) {
            Durations.nonNegativeNanos(limit, "sleep duration"); // the same check, and message, as a race's
            return Alt.choose(alt, Alt.after(limit)
                    .<A>afterJob(v -> failure(new TimeoutException("timed out after " + limit))));
        }
        Job<Void> timer = sleep(limit);
        return race(this, timer).flatMap(winner -> winner instanceof Either.Left<A, Void> left
                ? result(left.value())
                : failure(new TimeoutException("timed out after " + limit)));
    }

    /**
     * {@return this job, naming the fiber that runs it: the name appears in the fiber's {@code toString()},
     * in fiber dumps ({@link Scheduler#dump()}), watchdog warnings, simulator traces and deadlock reports
     * ({@code job.named("reader").start()})} Costs one entry in a weak table of names when it runs; an
     * unnamed fiber pays nothing.
     *
     * @param name the fiber's name
     */
    public final Job<A> named(String name) {
        return new FiberJobs.Named<>(this, Objects.requireNonNull(name, "name"));
    }

    /**
     * Runs this job and gives its value once it has finished, or rethrows its failure (unchecked as is,
     * checked wrapped in {@link java.util.concurrent.CompletionException}); throws
     * {@link java.util.concurrent.CancellationException} if it was cancelled. Inside a {@link #direct} body
     * it suspends only the direct fiber (this job runs as its child); on an ordinary thread it blocks the
     * thread while the job runs on Spindle's common scheduler. See {@link Direct#await}.
     *
     * @return this job's value
     * @throws IllegalStateException inside a stackless job (compose with {@link #flatMap} there)
     */
    public final A await() {
        return Direct.await(this);
    }

    /**
     * {@return a promise of this job's outcome: the job runs at most once, on the first read, and every
     * reader shares its outcome}
     */
    public final Promise<A> memo() {
        return Promise.of(this);
    }

    // ---------------------------------------------------------------- fibers

    /**
     * {@return a job that starts this job as a new fiber, a child of the current one, and gives its handle at
     * once} Cancelling the current fiber cancels the child.
     */
    public final Job<Fiber<A>> start() {
        return new FiberJobs.Start<>(this, FiberJobs.StartMode.CHILD);
    }

    /**
     * Like {@link #start()}, but the new fiber is not linked to the current one: cancelling the current
     * fiber leaves it running.
     *
     * @return a job that starts this job as a detached fiber and gives its handle
     */
    public final Job<Fiber<A>> startDetached() {
        return new FiberJobs.Start<>(this, FiberJobs.StartMode.DETACHED);
    }

    /**
     * {@return a job that starts this job as a detached fiber without a handle ("fire and forget"); a failure
     * of it goes to the scheduler's uncaught handler}
     */
    public final Job<Void> forget() {
        return new FiberJobs.Start<>(this, FiberJobs.StartMode.FORGET).then(unit());
    }
}
