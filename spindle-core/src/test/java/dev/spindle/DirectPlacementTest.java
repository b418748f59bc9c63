package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where direct bodies start on the continuation backend, which keeps a body on the worker that first runs
 * it: a body started detached ({@code startDetached}, {@code forget}) starts on the scheduler's workers in
 * turn, so a loop that starts a handler per request spreads them; a child ({@code start}) runs at once on
 * its starter's worker (work-first), as stackless children do.
 */
class DirectPlacementTest {
    private static final int BODIES = 8;

    @BeforeEach
    void continuationsOnly() {
        assumeTrue(Direct.backend() == Direct.Backend.CONTINUATION, "placement is the continuation backend's");
    }

    /** How many of {@code BODIES} bodies, started by {@code start} from one direct body, ran on each thread. */
    private static ConcurrentHashMap<String, Integer> threadsOfBodies(Scheduler s, StartKind start) throws Exception {
        ConcurrentHashMap<String, Integer> perThread = new ConcurrentHashMap<>();
        CountDownLatch ran = new CountDownLatch(BODIES);
        Job<Void> body = Job.direct(() -> {
            perThread.merge(Thread.currentThread().getName(), 1, Integer::sum);
            ran.countDown();
            return null;
        });
        s.run(Job.direct(() -> {
            List<Fiber<Void>> fibers = new ArrayList<>();
            for (int i = 0; i < BODIES; i++) {
                switch (start) {
                    case CHILD -> fibers.add(body.start().await());
                    case DETACHED -> fibers.add(body.startDetached().await());
                    case FORGET -> body.forget().await();
                }
            }
            for (Fiber<Void> f : fibers) {
                f.join().await();
            }
            return null;
        }));
        assertThat(ran.await(30, TimeUnit.SECONDS)).as("every body ran").isTrue();
        return perThread;
    }

    private enum StartKind { CHILD, DETACHED, FORGET }

    @Test
    void detachedBodiesStartOnTheWorkersInTurn() throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            assertThat(threadsOfBodies(s, StartKind.DETACHED).values()).containsExactlyInAnyOrder(4, 4);
        }
    }

    @Test
    void forgottenBodiesStartOnTheWorkersInTurn() throws Exception {
        try (Scheduler s = Scheduler.create(3)) {
            assertThat(threadsOfBodies(s, StartKind.FORGET).values()).containsExactlyInAnyOrder(3, 3, 2);
        }
    }

    @Test
    void childBodiesRunOnTheirStartersWorker() throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            assertThat(threadsOfBodies(s, StartKind.CHILD).values()).containsExactly(BODIES);
        }
    }

    @Test
    void onOneWorkerEveryBodyRunsThere() throws Exception {
        try (Scheduler s = Scheduler.create(1)) {
            assertThat(threadsOfBodies(s, StartKind.DETACHED).values()).containsExactly(BODIES);
        }
    }
}
