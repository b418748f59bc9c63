package dev.spindle;

/**
 * One of two values: the result of {@link Job#race(Job, Job)}, {@link Left} when the first job won.
 *
 * @param <A> the type of the left value
 * @param <B> the type of the right value
 */
public sealed interface Either<A, B> permits Either.Left, Either.Right {
    /**
     * The left (first) alternative.
     *
     * @param <A> the type of the left value
     * @param <B> the type of the right value
     * @param value the left value
     */
    record Left<A, B>(A value) implements Either<A, B> {
    }

    /**
     * The right (second) alternative.
     *
     * @param <A> the type of the left value
     * @param <B> the type of the right value
     * @param value the right value
     */
    record Right<A, B>(B value) implements Either<A, B> {
    }
}
