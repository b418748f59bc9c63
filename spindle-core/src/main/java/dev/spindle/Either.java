package dev.spindle;

/**
 * One of two values: the result of {@link Job#race(Job, Job)}, {@link Left} when the first job won.
 *
 * @param <A> the type of the left value
 * @param <B> the type of the right value
 */
public sealed interface Either<A, B> permits Either.Left, Either.Right {
    /** The left (first) alternative. */
    record Left<A, B>(A value) implements Either<A, B> {
    }

    /** The right (second) alternative. */
    record Right<A, B>(B value) implements Either<A, B> {
    }
}
