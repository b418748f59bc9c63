package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code recover}, {@code recoverWith} and {@code attempt} handle failures, and never cancellation. */
class RecoveryTest {
    @RegisterExtension
    final SchedulerExtension s = new SchedulerExtension(SchedulerKind.WORKERS_2);

    private final IllegalStateException boom = new IllegalStateException("boom");
    private final AtomicInteger handlerCalls = new AtomicInteger();

    @Test
    void recoverLeavesASuccessAlone() {
        assertThat(s.run(Job.result(1).recover(e -> handlerCalls.incrementAndGet()))).isEqualTo(1);
        assertThat(handlerCalls).hasValue(0);
    }

    @Test
    void recoverTurnsAFailureIntoTheHandlersValue() {
        assertThat(s.run(Job.<Object>failure(boom).recover(e -> e))).isSameAs(boom);
    }

    @Test
    void recoverDoesNotCatchCancellation() {
        Job<Integer> job = Job.<Integer>cancelled().recover(e -> handlerCalls.incrementAndGet());
        assertThat(s.outcome(job)).isEqualTo(Outcome.cancelled());
        assertThat(handlerCalls).hasValue(0);
    }

    @Test
    void aThrowingRecoverHandlerFailsWithTheOriginalSuppressed() {
        IllegalArgumentException second = new IllegalArgumentException("second");
        Outcome<Integer> o = s.outcome(Job.<Integer>failure(boom).recover(e -> {
            throw second;
        }));
        assertThat(o).isEqualTo(Outcome.failure(second));
        assertThat(second.getSuppressed()).containsExactly(boom);
    }

    @Test
    void recoverWithRunsTheHandlersJob() {
        assertThat(s.run(Job.<Integer>failure(boom).recoverWith(e -> Job.of(() -> 7)))).isEqualTo(7);
    }

    @Test
    void recoverWithGivesTheFailureOfTheHandlersJob() {
        IllegalArgumentException second = new IllegalArgumentException("second");
        assertThat(s.outcome(Job.<Integer>failure(boom).recoverWith(e -> Job.failure(second))))
                .isEqualTo(Outcome.failure(second));
    }

    @Test
    void recoverWithFailsWithNullPointerExceptionWhenTheHandlerReturnsNull() {
        assertThat(s.outcome(Job.<Integer>failure(boom).recoverWith(e -> null)))
                .isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error())
                        .isInstanceOf(NullPointerException.class).hasMessageContaining("recoverWith"));
    }

    @Test
    void recoverWithDoesNotCatchCancellation() {
        Job<Integer> job = Job.<Integer>cancelled().recoverWith(e -> Job.result(handlerCalls.incrementAndGet()));
        assertThat(s.outcome(job)).isEqualTo(Outcome.cancelled());
        assertThat(handlerCalls).hasValue(0);
    }

    @Test
    void attemptGivesASuccessAsAnOutcome() {
        assertThat(s.run(Job.result(3).attempt())).isEqualTo(Outcome.success(3));
    }

    @Test
    void attemptGivesAFailureAsAnOutcomeAndSucceeds() {
        assertThat(s.run(Job.<Integer>failure(boom).attempt())).isEqualTo(Outcome.failure(boom));
    }

    @Test
    void attemptDoesNotCatchCancellation() {
        assertThat(s.outcome(Job.<Integer>cancelled().attempt())).isEqualTo(Outcome.cancelled());
    }

    @Test
    void joiningACancelledFiberFailsWithARecoverableCancellationException() {
        AtomicBoolean started = new AtomicBoolean();
        Job<Object> job = TestJobs.signalThenForever(started).start().flatMap(f -> TestJobs.awaitTrue(started::get)
                .then(f.cancel())
                .then(f.join().<Object>map(v -> v).recover(e -> e)));
        assertThat(s.run(job)).isInstanceOf(CancellationException.class);
    }
}
