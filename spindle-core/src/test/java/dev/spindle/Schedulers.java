package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;

/**
 * The scheduler fixture: the kinds every scheduler test is swept over ({@code @MethodSource}) and the
 * checks that end each test (quiescence after close, worker threads alive, every thread of the scheduler ended).
 */
final class Schedulers {
    private Schedulers() {
    }

    /** Every kind: single-threaded and 1, 2, 4, 8 worker threads. */
    static Stream<SchedulerKind> all() {
        return Stream.of(SchedulerKind.SINGLE_THREADED, SchedulerKind.threads(1), SchedulerKind.threads(2),
                SchedulerKind.threads(4), SchedulerKind.threads(8));
    }

    /** The kinds where everything runs on one worker: where starvation and self-deadlock would show. */
    static Stream<SchedulerKind> oneWorker() {
        return Stream.of(SchedulerKind.SINGLE_THREADED, SchedulerKind.threads(1));
    }

    /** Closes {@code s} and checks the leak conditions: nothing queued, no live timer or fiber, threads joined. */
    static void closeAndCheck(Scheduler s) {
        s.close();
        assertThat(s.isClosed()).as("%s closed", s).isTrue();
        assertThat(s.engine.isQuiescent())
                .as("%s quiescent after close(): timers=%d, live fibers=%d (or work still queued)",
                        s, s.engine.timers().size(), s.engine.liveFibers())
                .isTrue();
        assertThat(liveWorkerThreads(s)).as("worker threads of %s still alive after close()", s).isZero();
        // the timer thread is told to stop, not joined: give it time to go
        Await.until(() -> liveThreads(s.engine + "-").isEmpty(),
                "every thread of " + s + " to end after close(), still alive: " + liveThreads(s.engine + "-"));
    }

    /** Asserts that every worker thread of {@code s} is still alive (user code killed none of them). */
    static void assertWorkersAlive(Scheduler s) {
        int expected = s.engine.isSingleThreaded() ? 0 : s.workerCount();
        assertThat(liveWorkerThreads(s)).as("live worker threads of %s", s).isEqualTo(expected);
    }

    private static long liveWorkerThreads(Scheduler s) {
        return liveThreads(s.engine + "-worker-").size();
    }

    /** Names of the live threads whose name starts with {@code prefix} (a scheduler names its threads after itself). */
    private static List<String> liveThreads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(prefix) && t.isAlive())
                .map(Thread::getName)
                .toList();
    }

    /** Rethrows {@code e} unchanged, checked or not. */
    @SuppressWarnings("unchecked")
    static <E extends Throwable> void sneakyThrow(Throwable e) throws E {
        throw (E) e;
    }
}
