package dev.spindle;

import static dev.spindle.CommJobs.repeat;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Cancellers on threads of their own race with fibers that see the cancellation at a bind and then wait
 * inside their finalizer, which is uncancelable. A canceller that found the fiber unmasked and was delayed
 * before it looked for the fiber's wait must not withdraw the finalizer's wait: every finalizer finishes.
 * One case per kind of blocker (a timer, a wait queue, a fiber's joiners, a choose, a foreign thread), and
 * one whose finalizer starts a child: the late canceller must not cancel it either.
 * More canceller threads than cores make the delay happen; the seed is printed on failure.
 */
@Tag("stress")
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MaskedWaitCancelStressTest {
    private static final long SEED = 20261130L;
    private static final int CANCELLERS = 4;
    private static final Duration SHORT = Duration.ofNanos(1_000);

    /** A short wait that ends by itself, on one kind of blocker; made afresh for each victim. */
    enum FinalizerWait {
        SLEEP(() -> Job.sleep(SHORT)),
        IVAR_READ(() -> {
            IVar<Integer> iv = new IVar<>();
            return Job.sleep(SHORT).then(iv.fill(1)).startDetached().then(iv.read()).then(Job.unit());
        }),
        JOIN(() -> Job.sleep(SHORT).startDetached().flatMap(Fiber::outcome).then(Job.unit())),
        /** A child started inside the region belongs to it: the cancellation reaches it when the region ends. */
        CHILD(() -> Job.sleep(SHORT).start().flatMap(Fiber::outcome)
                .flatMap(o -> o instanceof Outcome.Success ? Job.unit() : Job.failure(new AssertionError(
                        "a child started inside the finalizer ended " + o)))),
        CHOOSE(() -> Alt.choose(Alt.after(SHORT))),
        BLOCKING(() -> Job.blocking(() -> null).then(Job.unit()));

        private final Supplier<Job<Void>> job;

        FinalizerWait(Supplier<Job<Void>> job) {
            this.job = job;
        }
    }

    @ParameterizedTest
    @EnumSource(FinalizerWait.class)
    void aFinalizerThatWaitsAlwaysFinishes(FinalizerWait wait) throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            int rounds = StressScale.of(10_000);
            AtomicInteger finalized = new AtomicInteger();
            AtomicInteger cancelled = new AtomicInteger();
            List<Thread> cancellers = new ArrayList<>();
            for (int t = 0; t < CANCELLERS; t++) {
                SplittableRandom random = new SplittableRandom(SEED + t);
                cancellers.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < rounds; i++) {
                        Job<Void> victim = repeat(1 + random.nextInt(50), j -> Job.yieldNow())
                                .then(TestJobs.forever())
                                .ensure(wait.job.get().then(TestJobs.increment(finalized)));
                        Fiber<Void> f = s.run(victim.start());
                        for (int spin = random.nextInt(200); spin > 0; spin--) {
                            Thread.onSpinWait();
                        }
                        f.toCompletableFuture().cancel(false);
                        if (s.run(f.outcome()) instanceof Outcome.Cancelled) {
                            cancelled.incrementAndGet();
                        }
                    }
                }));
            }
            for (Thread t : cancellers) {
                t.join();
            }
            String context = "seed " + SEED + ", " + StressScale.describe();
            assertThat(cancelled).as("victims cancelled (%s)", context).hasValue(CANCELLERS * rounds);
            assertThat(finalized).as("finalizers finished (%s)", context).hasValue(CANCELLERS * rounds);
        }
    }
}
