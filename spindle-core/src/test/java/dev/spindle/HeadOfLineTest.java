package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A runnable item never waits behind a running one while a worker is idle: a long CPU-bound job and a
 * trivial one submitted right after it from outside run at the same time, the long one spinning until the
 * trivial one has set a flag. A worker takes one item at a time from the global queue, so the trivial job
 * is left there for an idle worker instead of waiting on the stack of the worker that runs the long one.
 */
@Timeout(120)
class HeadOfLineTest {
    private static final int ROUNDS = 100;
    /** How long the long job waits for the flag before it gives up: not a timing assertion, a bound. */
    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(10);

    static Stream<SchedulerKind> severalWorkers() {
        return Stream.of(SchedulerKind.WORKERS_2, SchedulerKind.WORKERS_4, SchedulerKind.WORKERS_8);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("severalWorkers")
    void aTrivialJobSubmittedAfterALongOneRunsWhileTheLongOneRuns(SchedulerKind kind) {
        kind.use(s -> {
            for (int round = 0; round < ROUNDS; round++) {
                AtomicBoolean flag = new AtomicBoolean();
                CompletableFuture<Boolean> sawFlag = s.submit(Job.of(() -> {
                    long deadline = System.nanoTime() + PATIENCE_NANOS;
                    while (!flag.get() && System.nanoTime() - deadline < 0) {
                        Thread.onSpinWait();
                    }
                    return flag.get();
                }));
                s.submit(Job.run(() -> flag.set(true)));
                assertThat(sawFlag.join()).as("round %d: the long job saw the trivial one run", round).isTrue();
            }
        });
    }
}
