package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.FailWork;
import dev.spindle.sync.Semaphore;
import dev.spindle.test.fixture.Patience;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract of {@link Blocker#removeWaiter}: a wait entered inside an uncancelable region is never
 * withdrawn, even by a canceller that asks after the cancellation was requested (a canceller delayed
 * between its request and its withdrawal, as {@link MaskedWaitCancelStressTest} provokes). One case per
 * kind of blocker; each waits, is asked to withdraw (and refuses), then is released and finishes its
 * region, after which the deferred cancellation ends the fiber. On one thread, so the fiber is known to
 * wait when the withdrawal is asked for; the unmasked control shows that the same wait is withdrawn.
 */
@Timeout(60)
class MaskedWaitWithdrawalTest {
    /** A wait on one kind of blocker, and the job that releases it (run once the fiber waits). */
    enum Wait {
        CHANNEL_TAKE(() -> {
            Channel<Integer> ch = new Channel<>();
            return new Case(ch.take(), ch.give(1));
        }),
        CHANNEL_GIVE(() -> {
            Channel<Integer> ch = new Channel<>();
            return new Case(ch.give(1), ch.take());
        }),
        MAILBOX_TAKE(() -> {
            Mailbox<Integer> mb = new Mailbox<>();
            return new Case(mb.take(), mb.send(1));
        }),
        BOUNDED_MAILBOX_SEND(() -> {
            BoundedMailbox<Integer> mb = new BoundedMailbox<>(1);
            return new Case(mb.send(1).then(mb.send(2)), mb.take());
        }),
        MVAR_TAKE(() -> {
            MVar<Integer> mv = new MVar<>();
            return new Case(mv.take(), mv.fill(1));
        }),
        IVAR_READ(() -> {
            IVar<Integer> iv = new IVar<>();
            return new Case(iv.read(), iv.fill(1));
        }),
        SEMAPHORE_ACQUIRE(() -> {
            Semaphore permits = new Semaphore(0);
            return new Case(permits.acquire(), Job.run(permits::release));
        }),
        JOIN(() -> {
            IVar<Integer> iv = new IVar<>();
            return new Case(iv.read().start().flatMap(Fiber::join), iv.fill(1));
        }),
        CHOOSE(() -> {
            Channel<Integer> a = new Channel<>();
            Channel<Integer> b = new Channel<>();
            return new Case(Alt.choose(a.take(), b.take()), b.give(2));
        }),
        /** Long enough that the control's cancellation, asked for at once, comes well before its end. */
        SLEEP(() -> new Case(Job.sleep(Patience.scale(Duration.ofMillis(200))), Job.unit())),
        FUTURE(() -> {
            CompletableFuture<Integer> cf = new CompletableFuture<>();
            return new Case(Job.fromFuture(() -> cf), Job.run(() -> cf.complete(1)));
        });

        private final Supplier<Case> make;

        Wait(Supplier<Case> make) {
            this.make = make;
        }
    }

    record Case(Job<?> waiting, Job<?> release) {
    }

    @ParameterizedTest
    @EnumSource(Wait.class)
    void aWaitInsideAnUncancelableRegionIsNotWithdrawn(Wait kind) {
        Case c = kind.make.get();
        AtomicBoolean regionFinished = new AtomicBoolean();
        Job<Void> victim = Job.uncancelable(c.waiting().then(Job.run(() -> regionFinished.set(true))));
        try (Scheduler s = Scheduler.singleThreaded()) {
            Outcome<Void> outcome = s.run(victim.start().flatMap(f -> waitingOn(f).flatMap(b -> Job.defer(() -> {
                f.toCompletableFuture().cancel(false); // masked: the request is deferred, nothing withdrawn
                FiberImpl<?> fiber = (FiberImpl<?>) f;
                Cont<?> withdrawn = b.removeWaiter(fiber);
                if (withdrawn != null) { // the defect: resume the fiber as the canceller would, then fail
                    fiber.engine().enqueue(new FailWork(withdrawn, CancelSignal.INSTANCE));
                }
                assertThat(withdrawn).as("a late withdrawal of the masked wait").isNull();
                return c.release().then(f.outcome());
            }))));
            assertThat(regionFinished).as("the region ran on after its wait").isTrue();
            assertThat(outcome).as("the deferred cancellation at the region's end").isEqualTo(Outcome.cancelled());
        }
    }

    @ParameterizedTest
    @EnumSource(Wait.class)
    void theSameWaitOutsideAnyRegionIsWithdrawn(Wait kind) {
        Case c = kind.make.get();
        AtomicBoolean passed = new AtomicBoolean();
        Job<Void> victim = c.waiting().then(Job.run(() -> passed.set(true)));
        try (Scheduler s = Scheduler.singleThreaded()) {
            Outcome<Void> outcome = s.run(victim.start().flatMap(f -> waitingOn(f).then(Job.defer(() -> {
                f.toCompletableFuture().cancel(false);
                return f.outcome();
            }))));
            assertThat(outcome).isEqualTo(Outcome.cancelled());
            assertThat(passed).as("the code after the withdrawn wait").isFalse();
        }
    }

    /** Waits (yielding) until {@code f} has enqueued its wait, and gives what it waits on. */
    private static Job<Blocker> waitingOn(Fiber<?> f) {
        FiberImpl<?> fiber = (FiberImpl<?>) f;
        return TestJobs.awaitTrue(() -> !fiber.isUnstarted() && fiber.lastBlocker() != null)
                .map(v -> fiber.lastBlocker());
    }
}
