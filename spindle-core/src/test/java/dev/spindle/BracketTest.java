package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code Job.bracket}: once acquire gives a resource, release runs for it exactly once however use ends,
 * also when the fiber's cancellation arrives between acquire's commit and use; an acquire that fails or is
 * cancelled while it waits leaves nothing to release.
 */
class BracketTest {
    @RegisterExtension
    final SchedulerExtension s = new SchedulerExtension(SchedulerKind.WORKERS_2);

    private final IllegalStateException boom = new IllegalStateException("boom");
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final AtomicBoolean started = new AtomicBoolean();

    /** Logs "release r" when run, as a release does. */
    private Job<Void> release(String resource) {
        return Job.run(() -> log.add("release " + resource));
    }

    /** Logs "use r", then runs {@code then}. */
    private <A> Function<String, Job<A>> use(Job<A> then) {
        return r -> Job.run(() -> log.add("use " + r)).then(then);
    }

    @Test
    void aUseThatSucceedsGivesItsValueAfterTheRelease() {
        Job<Integer> job = Job.bracket(Job.of(() -> log.add("acquire") ? "r" : ""), use(Job.result(42)), this::release);
        assertThat(s.run(job)).isEqualTo(42);
        assertThat(log).containsExactly("acquire", "use r", "release r");
    }

    @Test
    void aUseThatFailsKeepsItsFailureAndReleases() {
        Job<Integer> job = Job.bracket(Job.result("r"), use(Job.failure(boom)), this::release);
        assertThat(s.outcome(job)).isEqualTo(Outcome.failure(boom));
        assertThat(log).containsExactly("use r", "release r");
    }

    @Test
    void aUseCancelledWhileItWaitsReleasesOnce() {
        Job<Void> job = Job.bracket(Job.result("r"), use(TestJobs.signalThenForever(started)), this::release);
        assertThat(s.run(TestJobs.cancelOnceStarted(job, started::get))).isEqualTo(Outcome.cancelled());
        assertThat(log).containsExactly("use r", "release r");
    }

    @Test
    void anAcquireThatFailsReleasesNothing() {
        Job<Integer> job = Job.bracket(Job.<String>failure(boom), use(Job.result(1)), this::release);
        assertThat(s.outcome(job)).isEqualTo(Outcome.failure(boom));
        assertThat(log).isEmpty();
    }

    @Test
    void anAcquireCancelledWhileItWaitsTakesNothingAndReleasesNothing() {
        Channel<String> ch = new Channel<>();
        Job<String> acquire = Job.run(() -> started.set(true)).then(ch.take());
        Job<Integer> job = Job.bracket(acquire, use(Job.result(1)), this::release);
        assertThat(s.run(TestJobs.cancelOnceStarted(job, started::get))).isEqualTo(Outcome.cancelled());
        assertThat(s.run(ch.give("m").start().then(ch.take()))).as("the channel after the cancelled take")
                .isEqualTo("m");
        assertThat(log).isEmpty();
    }

    /**
     * The take's wrap cancels its own fiber as the take commits, so the cancellation always falls between
     * the commit and use: use is not called, and the resource is released.
     */
    @Test
    void aCancellationBetweenAcquireAndUseReleasesWithoutUsing() {
        Channel<String> ch = new Channel<>();
        Job<Integer> taker = Job.bracket(TestJobs.cancelledAtCommit(ch.take()), use(Job.result(1)), this::release);
        Outcome<Integer> o = s.run(taker.start().flatMap(f -> ch.give("r").then(f.outcome())));
        assertThat(o).isEqualTo(Outcome.cancelled());
        assertThat(log).containsExactly("release r");
    }

    /**
     * A timed acquire that is not an alternative runs in a race's child, whose end is a cancellation point of
     * its own; under uncancelable the child ends as it would have, and the bracket releases what it gave.
     * Here the child cancels the bracket's fiber as it gives the resource.
     */
    @Test
    void aRacedAcquireUnderUncancelableIsReleasedWhenItsFiberIsCancelled() {
        Job<Integer> job = Job.self().flatMap(self -> Job.bracket(Job.uncancelable(Job.of(() -> {
            self.toCompletableFuture().cancel(false);
            return "r";
        }).timeout(Duration.ofMinutes(1))), use(Job.result(1)), this::release));
        Outcome<Integer> o = s.run(job.start().flatMap(Fiber::outcome));
        assertThat(o).isEqualTo(Outcome.cancelled());
        assertThat(log).containsExactly("release r");
    }

    /** The same window after an uncancelable acquire: the cancellation its region deferred ends the same way. */
    @Test
    void aCancellationDeferredByAnUncancelableAcquireReleasesWithoutUsing() {
        Job<String> acquire = Job.uncancelable(Job.cancelled().then(Job.of(() -> log.add("acquire") ? "r" : "")));
        Job<Integer> job = Job.bracket(acquire, use(Job.result(1)), this::release);
        assertThat(s.outcome(job)).isEqualTo(Outcome.cancelled());
        assertThat(log).containsExactly("acquire", "release r");
    }

    /** After the bracket, the fiber is cancelable again: the acquire's region ended in the bracket. */
    @Test
    void anUncancelableAcquireLeavesTheFiberCancelableInUse() {
        Job<Void> job = Job.bracket(Job.uncancelable(Job.result("r")), use(TestJobs.signalThenForever(started)),
                this::release);
        assertThat(s.run(TestJobs.cancelOnceStarted(job, started::get))).isEqualTo(Outcome.cancelled());
        assertThat(log).containsExactly("use r", "release r");
    }

    @Test
    void releaseIsCalledOnlyToRelease() {
        Job<String> job = Job.bracket(Job.result("r"), r -> Job.of(() -> String.join(",", log)), r -> {
            log.add("release called");
            return Job.unit();
        });
        assertThat(s.run(job)).as("the log as use saw it").isEmpty();
        assertThat(log).containsExactly("release called");
    }

    @Test
    void aUseThatReturnsNullFailsAndStillReleases() {
        Outcome<Integer> o = s.outcome(Job.bracket(Job.result("r"), r -> null, this::release));
        assertThat(o).isInstanceOf(Outcome.Failure.class);
        assertThat(((Outcome.Failure<Integer>) o).error()).isInstanceOf(NullPointerException.class)
                .hasMessage("Job.bracket: use returned null instead of a job");
        assertThat(log).containsExactly("release r");
    }

    @Test
    void aReleaseThatFailsAfterASuccessBecomesTheFailure() {
        Job<Integer> job = Job.bracket(Job.result("r"), use(Job.result(1)), r -> {
            throw boom;
        });
        assertThat(s.outcome(job)).isEqualTo(Outcome.failure(boom));
        assertThat(log).containsExactly("use r");
    }

    @Test
    void aReleaseThatFailsAfterAFailureIsSuppressedByIt() {
        IllegalStateException first = new IllegalStateException("use");
        Outcome<Integer> o = s.outcome(Job.bracket(Job.result("r"), r -> Job.failure(first), r -> Job.failure(boom)));
        assertThat(o).isEqualTo(Outcome.failure(first));
        assertThat(first.getSuppressed()).containsExactly(boom);
    }

    @Test
    void eachRunAcquiresAndReleasesItsOwnResource() {
        int[] next = {0};
        Job<Integer> job = Job.bracket(Job.of(() -> "r" + next[0]++), use(Job.result(1)), this::release);
        assertThat(s.run(job.then(job))).isEqualTo(1);
        assertThat(log).containsExactly("use r0", "release r0", "use r1", "release r1");
    }
}
