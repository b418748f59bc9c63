package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * Fixture of the communication tests (channels, alts, IVar, MVar, Mailbox, Promise): the scheduler kinds
 * each test runs under, a leak check at the end, and small job helpers (loops, polling waits).
 */
final class CommFixture {
    /** How long a helper waits for a condition before failing (a hang guard, not a timing assertion). */
    static final Duration PATIENCE = Duration.ofSeconds(20);

    private CommFixture() {
    }

    /** The scheduler kinds every communication test runs under. */
    enum Kind {
        SINGLE_THREADED, ONE_WORKER, TWO_WORKERS, FOUR_WORKERS;

        Scheduler create(List<Throwable> uncaught) {
            Scheduler.Builder b = Scheduler.builder().name("comm-" + name().toLowerCase()).uncaughtHandler(uncaught::add);
            return switch (this) {
                case SINGLE_THREADED -> b.singleThreaded().build();
                case ONE_WORKER -> b.workers(1).build();
                case TWO_WORKERS -> b.workers(2).build();
                case FOUR_WORKERS -> b.workers(4).build();
            };
        }
    }

    /** Every kind, for {@code @MethodSource}. */
    static Stream<Kind> kinds() {
        return Stream.of(Kind.values());
    }

    /** A test body that gets a scheduler. */
    interface Body {
        void run(Scheduler s) throws Exception;
    }

    /**
     * Runs {@code body} with a fresh scheduler of {@code kind}; then closes it and checks that nothing
     * leaked: no live fiber, no pending timer, no failure sent to the uncaught handler.
     */
    static void with(Kind kind, Body body) throws Exception {
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        Scheduler s = kind.create(uncaught);
        try {
            body.run(s);
        } catch (Throwable e) {
            s.shutdownNow();
            throw e;
        }
        s.close();
        assertThat(s.engine.liveFibers()).as("live fibers after close").isZero();
        assertThat(s.engine.timers().size()).as("pending timers after close").isZero();
        assertThat(uncaught).as("failures that reached the uncaught handler").isEmpty();
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

    /** A job that lets other fibers run until {@code condition} holds; fails naming {@code what} if it never does. */
    static Job<Void> until(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
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
