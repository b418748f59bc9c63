package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.fixture.SchedulerKind;
import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The constructors {@code result}, {@code unit}, {@code failure}, {@code of}, {@code run}, {@code defer} give what they promise. */
class JobConstructorsTest {
    @RegisterExtension
    final SchedulerExtension s = new SchedulerExtension(SchedulerKind.WORKERS_2);

    @Test
    void resultGivesItsValue() {
        assertThat(s.run(Job.result("a"))).isEqualTo("a");
        assertThat(s.run(Job.<String>result(null))).isNull();
    }

    @Test
    void unitGivesNull() {
        assertThat(s.outcome(Job.unit())).isEqualTo(Outcome.success(null));
    }

    @Test
    void failureFailsWithItsError() {
        IllegalStateException boom = new IllegalStateException("boom");
        assertThat(s.outcome(Job.<Integer>failure(boom))).isEqualTo(Outcome.failure(boom));
    }

    @Test
    void ofGivesWhatTheCallableReturns() {
        assertThat(s.run(Job.of(() -> 6 * 7))).isEqualTo(42);
    }

    @Test
    void ofTurnsAThrownCheckedExceptionIntoAFailure() {
        IOException io = new IOException("disk");
        assertThat(s.outcome(Job.of(() -> {
            throw io;
        }))).isEqualTo(Outcome.failure(io));
    }

    @Test
    void ofTurnsAThrownErrorIntoAFailure() {
        AssertionError error = new AssertionError("inside a fiber");
        assertThat(s.outcome(Job.of(() -> {
            throw error;
        }))).isEqualTo(Outcome.failure(error));
    }

    @Test
    void runRunsTheActionAndGivesNull() {
        AtomicInteger calls = new AtomicInteger();
        assertThat(s.run(Job.run(calls::incrementAndGet))).isNull();
        assertThat(calls).hasValue(1);
    }

    @Test
    void runTurnsAThrownExceptionIntoAFailure() {
        IllegalArgumentException boom = new IllegalArgumentException("boom");
        assertThat(s.outcome(Job.run(() -> {
            throw boom;
        }))).isEqualTo(Outcome.failure(boom));
    }

    @Test
    void deferRunsTheJobTheFactoryMakes() {
        AtomicInteger calls = new AtomicInteger();
        Job<Integer> job = Job.defer(() -> Job.result(calls.incrementAndGet()));
        assertThat(s.run(job)).isEqualTo(1);
        assertThat(s.run(job)).isEqualTo(2);
    }

    @Test
    void deferTurnsAThrowingFactoryIntoAFailure() {
        IllegalStateException boom = new IllegalStateException("boom");
        assertThat(s.outcome(Job.<Integer>defer(() -> {
            throw boom;
        }))).isEqualTo(Outcome.failure(boom));
    }

    @Test
    void deferFailsWithNullPointerExceptionWhenTheFactoryReturnsNull() {
        assertThat(s.outcome(Job.<Integer>defer(() -> null)))
                .isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error())
                        .isInstanceOf(NullPointerException.class).hasMessageContaining("defer"));
    }

    @Test
    void blockingRunRethrowsAFailureOfTheConstructedJob() {
        IllegalStateException unchecked = new IllegalStateException("unchecked");
        IOException checked = new IOException("checked");
        assertThatThrownBy(() -> s.run(Job.failure(unchecked))).isSameAs(unchecked);
        assertThatThrownBy(() -> s.run(Job.failure(checked)))
                .isInstanceOf(CompletionException.class).cause().isSameAs(checked);
    }
}
