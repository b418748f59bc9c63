package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fibers whose whole job is one wait, so that the fiber itself is the waiting continuation: while it waits,
 * its value slot holds what it waits on (for a canceller), and the resumer stores the value there. Each wait
 * must give exactly the value it was resumed with, and a cancelled one must leave its primitive usable.
 * Every case runs on every scheduler on real threads.
 */
@Timeout(60)
class OwnContinuationTest {
    /** One channel and one IVar, shared by a case's waiter and its completion. */
    private record Prims(Channel<Integer> channel, IVar<Integer> ivar) {
        Prims() {
            this(new Channel<>(), new IVar<>());
        }
    }

    /** The waits under test, each the whole job of a fiber, and what resumes each with 7 (none for a sleep). */
    private enum Wait {
        TAKE(p -> p.channel().take(), p -> p.channel().give(7)),
        READ(p -> p.ivar().read(), p -> p.ivar().fill(7)),
        CHOOSE(p -> Alt.choose(p.channel().take(), Alt.never()), p -> p.channel().give(7)),
        SLEEP(p -> Job.sleep(Duration.ofHours(1)).map(v -> -1), null);

        final Function<Prims, Job<Integer>> job;
        final Function<Prims, Job<Void>> resumeWith7;

        Wait(Function<Prims, Job<Integer>> job, Function<Prims, Job<Void>> resumeWith7) {
            this.job = job;
            this.resumeWith7 = resumeWith7;
        }
    }

    /** Starts {@code job} as a fiber and waits until it waits (its slot holds a blocker). */
    private static Fiber<Integer> startAndAwaitBlocked(SchedulerKind kind, Scheduler s, Job<Integer> job) {
        Fiber<Integer> f = s.run(job.start());
        kind.awaitDriving(s, () -> ((FiberImpl<?>) f).lastBlocker() != null, "the fiber to wait");
        return f;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aWaitAsTheWholeJobGivesTheValueItWasResumedWith(SchedulerKind kind) {
        for (Wait wait : Wait.values()) {
            if (wait.resumeWith7 == null) {
                continue;
            }
            kind.use(s -> {
                Prims p = new Prims();
                Fiber<Integer> f = startAndAwaitBlocked(kind, s, wait.job.apply(p));
                s.run(wait.resumeWith7.apply(p));
                assertThat(s.run(f.join())).as("the value of %s", wait).isEqualTo(7);
            });
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aJoinAsTheWholeJobGivesTheJoinedValue(SchedulerKind kind) {
        kind.use(s -> {
            Prims p = new Prims();
            Fiber<Integer> gate = s.run(p.ivar().read().start());
            Fiber<Integer> f = startAndAwaitBlocked(kind, s, gate.join());
            s.run(p.ivar().fill(7));
            assertThat(s.run(f.join())).isEqualTo(7);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aSleepAsTheWholeJobGivesNull(SchedulerKind kind) {
        kind.use(s -> {
            Fiber<Void> f = s.run(Job.sleep(Duration.ofMillis(1)).start());
            assertThat(s.run(f.join())).isNull();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aCancelledWaitEndsCancelledAndLeavesItsPrimitiveUsable(SchedulerKind kind) {
        for (Wait wait : Wait.values()) {
            kind.use(s -> {
                Prims p = new Prims();
                Fiber<Integer> f = startAndAwaitBlocked(kind, s, wait.job.apply(p));
                s.run(f.cancel());
                assertThat(s.run(f.outcome())).as("the outcome of a cancelled %s", wait).isEqualTo(Outcome.cancelled());
                Fiber<Integer> taker = s.run(p.channel().take().start());
                s.run(p.channel().give(8));
                assertThat(s.run(taker.join())).as("a take after the cancelled %s", wait).isEqualTo(8);
                s.run(p.ivar().fill(9));
                assertThat(s.run(p.ivar().read())).as("a read after the cancelled %s", wait).isEqualTo(9);
            });
        }
    }
}
