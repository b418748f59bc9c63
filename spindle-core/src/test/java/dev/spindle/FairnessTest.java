package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A fiber that never blocks, or a pair that keeps waking each other, cannot starve timers, other fibers or
 * work submitted from outside: each test
 * here terminates only if the starved party gets to run (the class timeout is the hang guard).
 */
@Timeout(60)
class FairnessTest {
    /** Ends when {@code stop} holds; meanwhile binds in a loop, never blocking. */
    private static Job<Void> busy(AtomicBoolean stop) {
        return TestJobs.busyUntil(stop::get);
    }

    /**
     * Ends when {@code stop} holds; meanwhile a parent and a new child hand control back and forth through
     * start and join, all on the local work stack, without ever running out of fuel.
     */
    private static Job<Void> pingPong(AtomicBoolean stop) {
        return Job.defer(() -> stop.get() ? Job.unit()
                : Job.unit().start().flatMap(Fiber::join).then(pingPong(stop)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aBusyFiberDoesNotStarveASleepersTimer(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean stop = new AtomicBoolean();
            Job<Void> job = busy(stop).start().flatMap(loop -> Job.sleep(Duration.ofMillis(10))
                    .then(Job.run(() -> stop.set(true)))
                    .then(loop.join()));
            s.run(job);
            assertThat(stop).isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aBusyFiberDoesNotStarveAFiberThatYielded(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean stop = new AtomicBoolean();
            Job<Void> job = busy(stop).start().flatMap(loop -> Job.yieldNow()
                    .then(Job.run(() -> stop.set(true)))
                    .then(loop.join()));
            s.run(job);
            assertThat(stop).isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aBusyFiberDoesNotStarveWorkSubmittedFromOutside(SchedulerKind kind) {
        assertOutsideWorkRunsBeside(kind, FairnessTest::busy);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void pingPongingFibersDoNotStarveWorkSubmittedFromOutside(SchedulerKind kind) {
        assertOutsideWorkRunsBeside(kind, FairnessTest::pingPong);
    }

    /**
     * Two fibers that hand a message back and forth wake each other, so each runs next on the worker's stack,
     * always above a fiber woken just before them. The woken fiber ends the pair.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aPingPongPairDoesNotStarveAFiberQueuedBeneathIt(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean stop = new AtomicBoolean();
            Channel<Boolean> ping = new Channel<>();
            Channel<Boolean> pong = new Channel<>();
            IVar<Boolean> wake = new IVar<>();
            s.run(wake.read().then(Job.run(() -> stop.set(true))).start()
                    .then(echo(ping, pong).start())
                    .flatMap(echoer -> wake.fill(true).then(serve(ping, pong, stop)).then(echoer.join())));
            assertThat(stop).isTrue();
        });
    }

    /** The same pair in direct style (where a waiting body may run its partner's step on its own stack). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aDirectPingPongPairDoesNotStarveAFiberQueuedBeneathIt(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean stop = new AtomicBoolean();
            Channel<Boolean> ping = new Channel<>();
            Channel<Boolean> pong = new Channel<>();
            s.run(Job.direct(() -> {
                IVar<Boolean> wake = new IVar<>();
                wake.read().then(Job.run(() -> stop.set(true))).start().await();
                Fiber<Void> echoer = Job.<Void>direct(() -> {
                    while (ping.take().await()) {
                        pong.give(true).await();
                    }
                    return null;
                }).start().await();
                wake.fill(true).await();
                while (!stop.get()) {
                    ping.give(true).await();
                    pong.take().await();
                }
                ping.give(false).await();
                return echoer.join().await();
            }));
            assertThat(stop).isTrue();
        });
    }

    /** Answers every {@code true} on {@code ping} with one on {@code pong}; ends at a {@code false}. */
    private static Job<Void> echo(Channel<Boolean> ping, Channel<Boolean> pong) {
        return ping.take().flatMap(more -> more ? pong.give(true).then(echo(ping, pong)) : Job.unit());
    }

    /** Sends {@code true} and waits for the echo until {@code stop} holds, then sends {@code false}. */
    private static Job<Void> serve(Channel<Boolean> ping, Channel<Boolean> pong, AtomicBoolean stop) {
        return Job.defer(() -> stop.get() ? ping.give(false)
                : ping.give(true).then(pong.take()).then(serve(ping, pong, stop)));
    }

    /**
     * Runs {@code hog} (which ends once its flag is set) while another thread, once the hog is running,
     * submits the task that sets the flag. Should that thread fail instead, it ends the hog itself and the
     * test fails with its exception (not at the class timeout); the flag set by the submitted task is told
     * apart from that by {@code submittedRan}.
     */
    static void assertOutsideWorkRunsBeside(SchedulerKind kind,
                                                    java.util.function.Function<AtomicBoolean, Job<Void>> hog) {
        kind.use(s -> {
            AtomicBoolean running = new AtomicBoolean();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicBoolean submittedRan = new AtomicBoolean();
            HelperThread outside = HelperThread.start("outside", () -> {
                Await.until(running::get, "the hog to start");
                s.execute(() -> {
                    submittedRan.set(true);
                    stop.set(true);
                });
            }, e -> stop.set(true));
            s.run(Job.run(() -> running.set(true)).then(hog.apply(stop)));
            outside.join();
            assertThat(submittedRan).as("the task submitted from outside ran").isTrue();
        });
    }
}
