package dev.spindle.internal.run;

/**
 * What follows the first job of a sequencing step ({@code flatMap}, {@code then}, a bracket's acquire):
 * the continuation that carries the first job's value into the rest of the step. A job run as the first
 * part of a step either answers at once, returning its value so that the step goes on without a
 * continuation object, or returns {@link #LATER} after it has asked {@link #contFor} for one (to wait, or to
 * deliver its value later) or failed the step's own continuation.
 *
 * @param <A> the type of the first job's value
 * @param <B> the type of the step's value
 */
public interface StepTail<A, B> {
    /** What a job run as a step's first part returns when it has not answered at once. */
    Object LATER = new Object() {
        @Override
        public String toString() {
            return "LATER";
        }
    };

    /** The continuation that finishes this step into {@code k} once the first job has given its value. */
    Cont<A> contAfter(Cont<B> k);

    /** {@code step}'s continuation into {@code k}, or {@code k} itself when the job runs on its own (null). */
    @SuppressWarnings("unchecked")
    static <A, B> Cont<A> contFor(StepTail<A, B> step, Cont<B> k) {
        return step == null ? (Cont<A>) (Cont<?>) k : step.contAfter(k);
    }
}
