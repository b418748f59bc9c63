package dev.spindle.internal.select;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Alt;
import dev.spindle.Channel;
import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * An alternative defined outside {@code dev.spindle} through {@link AltImpl} and {@link Bridge#alt} takes part
 * in a choose like a channel's: committed when ready, registered otherwise, granted by a partner that commits
 * its pick first, skipped when its choose went another way; its nack fires when it loses.
 */
class ExternalAltTest {
    /** A token box: take() waits for a token; put() hands one to the oldest committed taker or keeps it. */
    static final class Tokens {
        final LockedWaitQueue queue = new LockedWaitQueue(this);
        int tokens;

        final Alt<String> take = Bridge.alt(new AltImpl<>() {
            @Override
            public void tryAlt(Worker w, int i, Cont<String> k, Else e) {
                queue.lock();
                if (tokens > 0) {
                    boolean won = e.pick.commitSelf(i);
                    if (won) {
                        tokens--;
                    }
                    queue.unlock();
                    if (won) {
                        e.pick.fireListeners(w);
                        Trampoline.succeed(w, k, "token");
                    } else {
                        e.pick.instantiated(w);
                    }
                    return;
                }
                queue.add(new Waiter<>(k, e.pick, i, null));
                queue.unlock();
                e.tryElse(w, i + 1);
            }

            @Override
            public String toString() {
                return "take of tokens";
            }
        });

        void put() {
            Grants.handOverOrKeep(queue, () -> tokens++, "handed");
        }

        int count() {
            queue.lock();
            int n = tokens;
            queue.unlock();
            return n;
        }
    }

    @Test
    void readyAtOnceCommitsAndTakes() {
        Tokens t = new Tokens();
        t.put();
        try (Scheduler s = Scheduler.create()) {
            assertThat(s.run(Alt.choose(t.take, Alt.always("other")))).isEqualTo("token");
        }
        assertThat(t.count()).isZero();
    }

    @Test
    void losingToAnEarlierReadyAlternativeTakesNothing() {
        Tokens t = new Tokens();
        t.put();
        try (Scheduler s = Scheduler.create()) {
            assertThat(s.run(Alt.choose(Alt.always("other"), t.take))).isEqualTo("other");
        }
        assertThat(t.count()).isEqualTo(1);
    }

    @Test
    void aStaleWaiterIsSkippedAndItsNackFires() {
        Tokens t = new Tokens();
        AtomicReference<Alt<Void>> nack = new AtomicReference<>();
        Channel<String> other = new Channel<>();
        try (Scheduler s = Scheduler.create()) {
            Alt<String> offered = Alt.withNack(n -> {
                nack.set(n);
                return Job.result(t.take);
            });
            Fiber<String> chooser = s.run(Alt.choose(offered, other.take()).start());
            awaitWaiters(t, 1);
            s.run(other.give("other"));
            assertThat(s.run(chooser.join())).isEqualTo("other");
            s.run(nack.get()); // ready: the choose went another way
            t.put(); // the only waiter is stale: the token stays
            assertThat(t.count()).isEqualTo(1);
        }
    }

    @Test
    void aWaitingAlternativeIsGrantedFromAnOrdinaryThread() {
        Tokens t = new Tokens();
        try (Scheduler s = Scheduler.create()) {
            Fiber<String> chooser = s.run(Alt.choose(t.take, Alt.never()).start());
            awaitWaiters(t, 1);
            t.put();
            assertThat(s.run(chooser.join())).isEqualTo("handed");
        }
        assertThat(t.count()).isZero();
    }

    private static void awaitWaiters(Tokens t, int n) {
        while (t.queue.waiting() < n) {
            Thread.onSpinWait();
        }
    }

    @Test
    void runAsAJobItIsAChooseOfOne() {
        Tokens t = new Tokens();
        t.put();
        try (Scheduler s = Scheduler.create()) {
            assertThat(s.run(t.take.map(String::length))).isEqualTo(5);
        }
    }
}
