package dev.spindle;

import static dev.spindle.CommJobs.repeat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stress of {@code Job.bracket}: users borrow tokens from a mailbox in brackets that give them back,
 * while a fiber cancels users at random, before and during their use, and a quarter of the users cancel
 * themselves as their take commits, before the use. Conservation:
 * every token taken was given back exactly once, no token was held by two users at once, and the mailbox
 * holds every token at the end. Sizes scale with {@link StressScale}; the seed is printed on failure.
 */
@Tag("stress")
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BracketStressTest {
    private static final int TOKENS = 8;
    private static final long SEED = 20261129L;

    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void everyTokenTakenIsGivenBackOnce(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            int users = StressScale.of(4000);
            Mailbox<Integer> tokens = new Mailbox<>("tokens");
            AtomicInteger taken = new AtomicInteger();
            AtomicInteger givenBack = new AtomicInteger();
            AtomicIntegerArray holders = new AtomicIntegerArray(TOKENS);
            AtomicReferenceArray<Fiber<Void>> fibers = new AtomicReferenceArray<>(users);
            AtomicInteger cancels = new AtomicInteger();
            Job<Void> startUsers = Job.defer(() -> {
                SplittableRandom random = new SplittableRandom(SEED);
                return repeat(users, id -> {
                    int yields = random.nextInt(3);
                    Alt<Integer> take = tokens.take().wrap(t -> {
                        taken.incrementAndGet();
                        return t;
                    });
                    // a quarter cancel themselves as the take commits, the window a plain flatMap leaks in
                    Job<Integer> acquire = random.nextInt(4) == 0 ? TestJobs.cancelledAtCommit(take) : take;
                    Job<Void> user = Job.bracket(acquire, t -> {
                        assertThat(holders.incrementAndGet(t)).as("holders of token %d", t).isEqualTo(1);
                        return repeat(yields, i -> Job.yieldNow());
                    }, t -> Job.run(() -> holders.decrementAndGet(t)).then(Job.run(givenBack::incrementAndGet))
                            .then(tokens.send(t)));
                    return user.start().map(f -> fibers.getAndSet(id, f)).then(Job.yieldNow());
                });
            });
            Job<Void> canceller = Job.defer(() -> {
                SplittableRandom random = new SplittableRandom(SEED + 1);
                return repeat(users, j -> {
                    Fiber<Void> f = fibers.get(random.nextInt(users));
                    if (f == null || random.nextInt(2) != 0) {
                        return Job.yieldNow();
                    }
                    cancels.incrementAndGet();
                    return f.cancel();
                });
            });
            s.run(repeat(TOKENS, tokens::send)
                    .then(startUsers.start().flatMap(u -> canceller.start().flatMap(c -> u.join().then(c.join()))))
                    // a user still waiting now waits for a token lost to a broken bracket: end it
                    .then(Job.defer(() -> repeat(users, i -> fibers.get(i).cancel()))));
            List<Integer> back = s.run(drain(tokens, new ArrayList<>()));
            String context = "seed " + SEED + ", " + cancels.get() + " cancellations, " + StressScale.describe();
            assertThat(givenBack).as("tokens given back vs taken (%s)", context).hasValue(taken.get());
            assertThat(back).as("the tokens in the mailbox at the end (%s)", context)
                    .containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
        });
    }

    /** Takes every token waiting now into {@code into}; a take that would wait ends the drain. */
    private static Job<List<Integer>> drain(Mailbox<Integer> tokens, List<Integer> into) {
        return Alt.choose(tokens.take(), Alt.after(Duration.ZERO).wrap(v -> (Integer) null)).flatMap(t -> {
            if (t == null) {
                return Job.result(into);
            }
            into.add(t);
            return drain(tokens, into);
        });
    }
}
