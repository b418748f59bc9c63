package dev.spindle;

import dev.spindle.test.fixture.Patience;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

/** Small jobs of the communication tests (channels, alts, IVar, MVar, Mailbox, Promise): loops, polling waits, polls. */
final class CommJobs {
    private CommJobs() {
    }

    /** Runs {@code body(0) .. body(n - 1)} one after another. */
    static Job<Void> repeat(int n, IntFunction<Job<?>> body) {
        return loop(0, n, body);
    }

    private static Job<Void> loop(int i, int n, IntFunction<Job<?>> body) {
        if (i == n) {
            return Job.unit();
        }
        return Job.defer(() -> body.apply(i)).flatMap(x -> loop(i + 1, n, body));
    }

    /**
     * A job that lets other fibers run until {@code condition} holds; fails naming {@code what} if it does
     * not within {@link Patience#LONG}.
     */
    static Job<Void> until(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Patience.LONG.toNanos();
        return untilDeadline(condition, what, deadline);
    }

    private static Job<Void> untilDeadline(BooleanSupplier condition, String what, long deadline) {
        return Job.defer(() -> {
            if (condition.getAsBoolean()) {
                return Job.unit();
            }
            if (System.nanoTime() - deadline > 0) {
                return Job.failure(new AssertionError("timed out waiting for " + what));
            }
            return Job.yieldNow().then(untilDeadline(condition, what, deadline));
        });
    }

    /** An alternative that is ready when {@code alt} is, else gives {@code otherwise} at once: a poll. */
    static <A> Job<A> poll(Alt<A> alt, A otherwise) {
        return Alt.choose(alt, Alt.always(otherwise));
    }
}
