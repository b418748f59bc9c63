package dev.spindle;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;

/**
 * How a job ended: exactly one of {@link Success}, {@link Failure} or {@link Cancelled}.
 *
 * <pre>{@code
 * Outcome<Integer> o = scheduler.run(job.attempt());
 * switch (o) {
 *     case Outcome.Success<Integer> s -> use(s.value());
 *     case Outcome.Failure<Integer> f -> log(f.error());
 *     case Outcome.Cancelled<Integer> c -> retry();
 * }
 * }</pre>
 *
 * @param <A> the type of a successful value
 */
public sealed interface Outcome<A> permits Outcome.Success, Outcome.Failure, Outcome.Cancelled {

    /**
     * A successful outcome. The value may be null (for {@code Job<Void>}).
     *
     * @param <A> the type of the value
     * @param value the job's value
     */
    record Success<A>(A value) implements Outcome<A> {
    }

    /**
     * A failed outcome, carrying the exception that ended the job.
     *
     * @param <A> the type a successful value would have had
     * @param error the exception that ended the job, not null
     */
    record Failure<A>(Throwable error) implements Outcome<A> {
        /** Creates a failure; {@code error} must not be null. */
        public Failure {
            Objects.requireNonNull(error, "error");
        }
    }

    /**
     * The job was cancelled before it produced a value.
     *
     * @param <A> the type a successful value would have had
     */
    record Cancelled<A>() implements Outcome<A> {
    }

    /**
     * Creates a {@link Success}.
     *
     * @param <A> the type of the value
     * @param value the value, may be null
     * @return the outcome
     */
    static <A> Outcome<A> success(A value) {
        return new Success<>(value);
    }

    /**
     * Creates a {@link Failure}.
     *
     * @param <A> the type a successful value would have had
     * @param error the exception, not null
     * @return the outcome
     */
    static <A> Outcome<A> failure(Throwable error) {
        return new Failure<>(error);
    }

    /**
     * Creates a {@link Cancelled}.
     *
     * @param <A> the type a successful value would have had
     * @return the outcome
     */
    static <A> Outcome<A> cancelled() {
        return new Cancelled<>();
    }

    /** {@return whether this is a {@link Success}} */
    default boolean isSuccess() {
        return this instanceof Success<A>;
    }

    /**
     * The value of a success; for a failure, rethrows the error (unchecked errors as they are, checked ones
     * wrapped in {@link CompletionException}); for a cancellation, throws {@link CancellationException}.
     *
     * @return the value of a success
     */
    default A getOrThrow() {
        return switch (this) {
            case Success<A> s -> s.value();
            case Failure<A> f -> throw JobSupport.rethrowable(f.error());
            case Cancelled<A> c -> throw new CancellationException("the job was cancelled");
        };
    }
}
