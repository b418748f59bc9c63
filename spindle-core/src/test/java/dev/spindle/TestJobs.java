package dev.spindle;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Small jobs that tests compose: waiting forever, waiting for a flag, busy loops, counters, a cancellation
 * timed to a commit.
 */
public final class TestJobs {
    private TestJobs() {
    }

    /**
     * Waits on {@code alt}, whose commit cancels the waiting fiber: the cancellation always falls between
     * the commit and the step after it.
     *
     * @param <A> the type of the alternative's value
     * @param alt the wait
     * @return a job that gives the alternative's value with its fiber's cancellation pending
     */
    public static <A> Job<A> cancelledAtCommit(Alt<A> alt) {
        return Job.self().flatMap(self -> alt.wrap(v -> {
            self.toCompletableFuture().cancel(false);
            return v;
        }));
    }

    /** Sleeps far longer than any test: only cancellation ends it. */
    static Job<Void> forever() {
        return Job.sleep(Duration.ofHours(1));
    }

    /** Sets {@code started}, then waits forever: a fiber to cancel once it is known to be inside its body. */
    static Job<Void> signalThenForever(AtomicBoolean started) {
        return Job.run(() -> started.set(true)).then(forever());
    }

    /** Yields until {@code condition} holds: lets a fiber wait for another without any blocking primitive. */
    static Job<Void> awaitTrue(BooleanSupplier condition) {
        return Job.defer(() -> condition.getAsBoolean() ? Job.unit() : Job.yieldNow().then(awaitTrue(condition)));
    }

    /** Binds in a loop, never blocking or yielding explicitly, until {@code stop} holds. */
    static Job<Void> busyUntil(BooleanSupplier stop) {
        return Job.defer(() -> stop.getAsBoolean() ? Job.unit() : Job.unit().flatMap(v -> busyUntil(stop)));
    }

    /**
     * Starts {@code body} as a child, waits until {@code started} holds (the body is inside whatever regions
     * it opens), cancels it and gives its outcome, its finalizers having run.
     */
    static <A> Job<Outcome<A>> cancelOnceStarted(Job<A> body, BooleanSupplier started) {
        return body.start().flatMap(f -> awaitTrue(started).then(f.cancel()).then(f.outcome()));
    }

    /** Increments {@code counter}. */
    static Job<Void> increment(AtomicInteger counter) {
        return Job.run(counter::incrementAndGet);
    }
}
