package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A direct body whose awaits never wait (each job completes at once, inside the await) cannot starve the
 * work handed to its worker meanwhile. Each test terminates only if the starved party gets to run (the
 * class timeout is the hang guard). Named for the direct-style runs of the build, which repeat it on the
 * continuation backend, with and without helping while waiting.
 */
@Timeout(60)
class DirectFairnessTest {
    /**
     * Steps a busy body may take before the test fails: about a second's work, a hundred times what it needs,
     * and few enough that the waiting children of a failing run fit in the heap.
     */
    private static final int MAX_STEPS = 500_000;

    /**
     * How a direct body keeps busy: called inside the body with a gate the test opens at its end, gives the
     * step the body repeats, which awaits jobs that complete inside the await, so the body never yields by
     * waiting.
     */
    private interface Busy {
        Runnable inBody(IVar<Integer> gate);
    }

    /** Starts a child body that ends at once: its fiber's last steps spend the worker's fuel, and bounce. */
    private static final Busy STARTS_ENDING = gate -> () -> Job.direct(() -> 0).start().await();

    /** Starts a child body that waits for the gate, as a spawner of sleepers does: no step bounces. */
    private static final Busy STARTS_WAITING = gate -> () -> Job.direct(() -> gate.read().await()).start().await();

    /**
     * A direct body that keeps starting children that end at once never leaves its worker by waiting, while
     * the sleeper it started on that worker (a child's body stays on the worker of its first step) falls due:
     * the body still yields to it. The children bounce, so the body yields more often than its worker would
     * look at the global queue, where the fired timer waits.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aBodyStartingChildrenThatEndDoesNotStarveTheSleeperItStarted(SchedulerKind kind) {
        assertSleeperWakesBeside(kind, STARTS_ENDING);
    }

    /** The same with children that wait: nothing bounces, and the body yields after so many starts. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aBodyStartingChildrenThatWaitDoesNotStarveTheSleeperItStarted(SchedulerKind kind) {
        assertSleeperWakesBeside(kind, STARTS_WAITING);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aBodyStartingChildrenThatEndDoesNotStarveWorkSubmittedFromOutside(SchedulerKind kind) {
        assertOutsideWorkRunsBeside(kind, STARTS_ENDING);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aBodyStartingChildrenThatWaitDoesNotStarveWorkSubmittedFromOutside(SchedulerKind kind) {
        assertOutsideWorkRunsBeside(kind, STARTS_WAITING);
    }

    /** A direct body starts a sleeper, then keeps {@code busy} until the sleeper wakes and stops it. */
    private static void assertSleeperWakesBeside(SchedulerKind kind, Busy busy) {
        kind.use(s -> {
            AtomicBoolean stop = new AtomicBoolean();
            s.run(Job.direct(() -> {
                Fiber<Void> sleeper = Job.<Void>direct(() -> {
                    Job.sleep(Duration.ofMillis(1)).await();
                    stop.set(true);
                    return null;
                }).start().await();
                keepBusy(busy, stop);
                return sleeper.join().await();
            }));
            assertThat(stop).isTrue();
        });
    }

    private static void assertOutsideWorkRunsBeside(SchedulerKind kind, Busy busy) {
        FairnessTest.assertOutsideWorkRunsBeside(kind, stop -> Job.direct(() -> {
            keepBusy(busy, stop);
            return null;
        }));
    }

    /**
     * Inside a direct body: repeats {@code busy}'s step until {@code stop} holds, then opens the gate for the
     * children waiting on it. Fails after {@link #MAX_STEPS} steps rather than fill the heap with children.
     */
    private static void keepBusy(Busy busy, AtomicBoolean stop) {
        IVar<Integer> gate = new IVar<>();
        Runnable step = busy.inBody(gate);
        try {
            for (int i = 0; !stop.get(); i++) {
                if (i == MAX_STEPS) {
                    throw new AssertionError("the starved work did not run within " + MAX_STEPS + " steps");
                }
                step.run();
            }
        } finally {
            gate.fill(0).await();
        }
    }
}
