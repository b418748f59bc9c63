package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code ensure} and {@code onCancel} run their finalizer exactly once, uncancelable, on the outcomes they
 * apply to, and {@code uncancelable} defers cancellation to the end of its region.
 */
class FinalizerTest {
    @RegisterExtension
    final SchedulerExtension s = new SchedulerExtension(SchedulerKind.WORKERS_2);

    private final IllegalStateException boom = new IllegalStateException("boom");
    private final AtomicInteger finalized = new AtomicInteger();
    private final AtomicBoolean started = new AtomicBoolean();

    /** Starts {@code body} as a child, waits until it set {@link #started}, cancels it and gives its outcome. */
    private <A> Outcome<A> cancelOnceStarted(Job<A> body) {
        return s.run(TestJobs.cancelOnceStarted(body, started::get));
    }

    @Test
    void ensureRunsAfterASuccessAndKeepsTheValue() {
        List<String> order = new CopyOnWriteArrayList<>();
        Job<String> job = Job.of(() -> order.add("body") ? "value" : "")
                .ensure(Job.run(() -> order.add("finalizer")));
        assertThat(s.run(job)).isEqualTo("value");
        assertThat(order).containsExactly("body", "finalizer");
    }

    @Test
    void ensureRunsAfterAFailureAndKeepsTheFailure() {
        assertThat(s.outcome(Job.<Integer>failure(boom).ensure(TestJobs.increment(finalized))))
                .isEqualTo(Outcome.failure(boom));
        assertThat(finalized).hasValue(1);
    }

    @Test
    void ensureRunsOnceWhenCancelledBeforeCancelReturns() {
        Outcome<Void> o = cancelOnceStarted(TestJobs.signalThenForever(started).ensure(TestJobs.increment(finalized)));
        assertThat(o).isEqualTo(Outcome.cancelled());
        assertThat(finalized).hasValue(1);
    }

    @Test
    void aFailingFinalizerAfterASuccessBecomesTheFailure() {
        assertThat(s.outcome(Job.result(1).ensure(Job.failure(boom)))).isEqualTo(Outcome.failure(boom));
    }

    @Test
    void aFailingFinalizerAfterAFailureIsSuppressedByIt() {
        IllegalArgumentException body = new IllegalArgumentException("body");
        assertThat(s.outcome(Job.<Integer>failure(body).ensure(Job.failure(boom)))).isEqualTo(Outcome.failure(body));
        assertThat(body.getSuppressed()).containsExactly(boom);
    }

    @Test
    void aFailingFinalizerOfACancelledJobGoesToTheUncaughtHandler() {
        Outcome<Void> o = cancelOnceStarted(TestJobs.signalThenForever(started).ensure(Job.failure(boom)));
        assertThat(o).isEqualTo(Outcome.cancelled());
        s.uncaught().assertExactly(boom);
    }

    @Test
    void theFinalizerOfACancelledJobIsUncancelable() {
        Job<Void> slowFinalizer = Job.sleep(Duration.ofMillis(5)).then(TestJobs.increment(finalized));
        Outcome<Void> o = cancelOnceStarted(TestJobs.signalThenForever(started).ensure(slowFinalizer));
        assertThat(o).isEqualTo(Outcome.cancelled());
        assertThat(finalized).as("the finalizer ran to its end although its fiber was cancelled").hasValue(1);
    }

    @Test
    void onCancelDoesNotRunAfterASuccessOrAFailure() {
        assertThat(s.run(Job.result(1).onCancel(TestJobs.increment(finalized)))).isEqualTo(1);
        assertThat(s.outcome(Job.<Integer>failure(boom).onCancel(TestJobs.increment(finalized))))
                .isEqualTo(Outcome.failure(boom));
        assertThat(finalized).hasValue(0);
    }

    @Test
    void onCancelRunsOnceWhenCancelled() {
        Outcome<Void> o = cancelOnceStarted(TestJobs.signalThenForever(started).onCancel(TestJobs.increment(finalized)));
        assertThat(o).isEqualTo(Outcome.cancelled());
        assertThat(finalized).hasValue(1);
    }

    @Test
    void onCancelRunsWhenTheJobCancelsItself() {
        assertThat(s.outcome(Job.cancelled().onCancel(TestJobs.increment(finalized)))).isEqualTo(Outcome.cancelled());
        assertThat(finalized).hasValue(1);
    }

    @Test
    void uncancelableFinishesItsRegionBeforeCancellationTakesEffect() {
        AtomicInteger regionEnded = new AtomicInteger();
        AtomicInteger afterRegion = new AtomicInteger();
        Job<Void> body = Job.uncancelable(Job.run(() -> started.set(true))
                        .then(Job.sleep(Duration.ofMillis(5)))
                        .then(TestJobs.increment(regionEnded)))
                .then(TestJobs.increment(afterRegion));
        assertThat(cancelOnceStarted(body)).isEqualTo(Outcome.cancelled());
        assertThat(regionEnded).as("the region ran to its end").hasValue(1);
        assertThat(afterRegion).as("cancellation took effect when the region ended").hasValue(0);
    }

    @Test
    void selfCancellationInsideUncancelableTakesEffectWhenTheRegionEnds() {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger after = new AtomicInteger();
        Job<Void> job = Job.uncancelable(Job.cancelled().then(TestJobs.increment(inside)))
                .then(TestJobs.increment(after));
        assertThat(s.outcome(job)).isEqualTo(Outcome.cancelled());
        assertThat(inside).hasValue(1);
        assertThat(after).hasValue(0);
    }

    @Test
    void onlyTheOutermostUncancelableRegionEndLetsCancellationThrough() {
        AtomicInteger betweenRegionEnds = new AtomicInteger();
        Job<Void> job = Job.uncancelable(
                Job.uncancelable(Job.cancelled()).then(TestJobs.increment(betweenRegionEnds)));
        assertThat(s.outcome(job)).isEqualTo(Outcome.cancelled());
        assertThat(betweenRegionEnds).hasValue(1);
    }

    @Test
    void uncancelableWithoutCancellationGivesTheValue() {
        assertThat(s.run(Job.uncancelable(Job.result(5)))).isEqualTo(5);
        assertThat(s.outcome(Job.uncancelable(Job.<Integer>failure(boom)))).isEqualTo(Outcome.failure(boom));
    }
}
