package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import dev.spindle.sync.Event;
import dev.spindle.sync.Mutex;
import dev.spindle.sync.WaitGroup;
import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wait group, mutex, semaphore, event and pool of {@link Coordination} on real schedulers, and a wait
 * group shared by fibers and an ordinary thread.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class CoordinationTest {
    static final List<String> DOCUMENTS = List.of("to be or not to be", "be quick", "hello");
    static final Map<String, Integer> WORD_COUNTS = Map.of("to be or not to be", 6, "be quick", 2, "hello", 1);
    static final List<String> CONFIG_READS =
            List.of("loaded v2", "reader saw v2", "reader saw v2", "late reader saw v2");
    static final String PAGE = "<p>hello</p>";

    /** A factory of string builders that counts the builders it makes. */
    static Supplier<StringBuilder> counting(AtomicInteger made) {
        return () -> {
            made.incrementAndGet();
            return new StringBuilder();
        };
    }

    /**
     * Each of the three outcomes of {@link Coordination#lockUnlessStopping}; the waits that lose take
     * nothing: the mutex stays free, and an AUTO event keeps its signal for the next waiter.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void aLockWaitTakesPartInAChoose(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            Mutex mutex = new Mutex("db");
            Event shutdown = new Event(Event.Mode.AUTO, false, "shutdown");
            assertThat(fixture.run(Coordination.lockUnlessStopping(mutex, shutdown))).isEqualTo("locked");
            assertThat(mutex.isLocked()).isTrue();
            assertThat(fixture.run(Coordination.lockUnlessStopping(mutex, shutdown))).isEqualTo("busy");
            shutdown.signal();
            assertThat(fixture.run(Coordination.lockUnlessStopping(mutex, shutdown))).isEqualTo("stopping");
            assertThat(shutdown.isSignalled()).as("the committed wait reset the AUTO event").isFalse();
            mutex.unlock();
            assertThat(mutex.isLocked()).as("the losing lock waits took nothing").isFalse();
            shutdown.signal();
            assertThat(fixture.run(Coordination.lockUnlessStopping(mutex, shutdown))).isEqualTo("locked");
            assertThat(shutdown.isSignalled()).as("the losing event wait left the signal").isTrue();
            mutex.unlock();
        }
    }

    /** The wait group reaches zero only once every document is counted, so the map is complete. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void waitGroupWaitsForEveryTask(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            for (int i = 0; i < 20; i++) {
                assertThat(fixture.run(Coordination.wordCounts(DOCUMENTS)))
                        .containsExactlyEntriesOf(new TreeMap<>(WORD_COUNTS));
            }
        }
    }

    /** An empty fan-out: the wait group starts at zero and its await completes at once. */
    @Test
    void emptyFanOutCompletesAtOnce() {
        try (Scheduler scheduler = Scheduler.singleThreaded()) {
            assertThat(scheduler.run(Coordination.wordCounts(List.of()))).isEmpty();
        }
    }

    /** Under the mutex, no increment of the racy counter is lost. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void mutexLosesNoUpdate(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Coordination.guardedIncrements(1_000))).isEqualTo(1_000);
        }
    }

    /** Never more downloads at once than permits, and every download ends (Job.all returns). */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void semaphoreBoundsConcurrency(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Coordination.limitedDownloads(10, 3))).isBetween(1, 3);
            assertThat(fixture.run(Coordination.limitedDownloads(10, 1))).isEqualTo(1);
        }
    }

    /** Every reader, early or late, sees the version published before the signal. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void eventReleasesEveryReader(SchedulerKind kind) {
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Coordination.waitForConfig())).isEqualTo(CONFIG_READS);
        }
    }

    /** The pool makes at most its capacity of builders, and each loan gets a cleared, unshared one. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#all")
    void poolLendsClearedBuilders(SchedulerKind kind) {
        AtomicInteger made = new AtomicInteger();
        try (SchedulerFixture fixture = kind.open()) {
            assertThat(fixture.run(Coordination.renderPages(6, counting(made))))
                    .isEqualTo(Collections.nCopies(6, PAGE));
        }
        assertThat(made.get()).isBetween(1, 2);
    }

    /** The thread wakes only after the last task has counted down: every task has finished by then. */
    @Test
    void threadWaitsForEveryFiber() throws InterruptedException {
        assertThat(Coordination.threadWaitsForFibers(100)).isEqualTo(100);
    }

    /**
     * Inside a stackless job, a blocking form that would have to wait refuses with IllegalStateException
     * rather than park a worker; one that need not wait returns at once.
     */
    @Test
    void blockingFormInsideAJobRefusesToWait() {
        WaitGroup open = new WaitGroup();
        WaitGroup closed = new WaitGroup(1);
        try (Scheduler scheduler = Scheduler.create(1)) {
            assertThat(scheduler.runOutcome(Job.of(() -> {
                open.awaitBlocking();  // count zero: no wait, so allowed
                closed.awaitBlocking();
                return "not reached";
            }))).isInstanceOfSatisfying(Outcome.Failure.class, failure ->
                    assertThat(failure.error()).isInstanceOf(IllegalStateException.class));
        }
        assertThat(closed.count()).isEqualTo(1);
    }
}
