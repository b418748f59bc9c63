package dev.spindle;

import static dev.spindle.CommJobs.repeat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The classic CML lock server: clients ask for the lock with a request that carries a reply channel and a
 * nack; the server offers the lock to the oldest request until it is taken or its nack says the client
 * gave up (timed out, chose something else, or was cancelled). Mutual exclusion must hold and the lock
 * must never leak, whatever the mix of timeouts and cancellations.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LockServerTest {

    /** A request for the lock. */
    record Request(Channel<Void> reply, Alt<Void> nack) {
    }

    /** The server's state; touched only by the server fiber. */
    static final class Server {
        final Channel<Request> requests = new Channel<>("lock-requests");
        final Channel<Void> releases = new Channel<>("lock-releases");
        final Channel<Void> stop = new Channel<>("lock-stop");
        final ArrayDeque<Request> pending = new ArrayDeque<>();
        boolean held;
        int received;
        int grants;
        int abandoned;
        int releasesSeen;
        boolean releaseWhileFree;

        /** The server loop: ends when stop is given. */
        Job<Void> run() {
            return Job.defer(() -> {
                List<Alt<Boolean>> alts = new ArrayList<>();
                alts.add(requests.take().wrap(r -> {
                    pending.add(r);
                    received++;
                    return true;
                }));
                alts.add(releases.take().wrap(v -> {
                    releasesSeen++;
                    if (!held) {
                        releaseWhileFree = true;
                    }
                    held = false;
                    return true;
                }));
                if (!held && !pending.isEmpty()) {
                    Request r = pending.peek();
                    alts.add(r.reply().give(null).wrap(v -> {
                        pending.poll();
                        held = true;
                        grants++;
                        return true;
                    }));
                    alts.add(r.nack().wrap(v -> {
                        pending.poll();
                        abandoned++;
                        return true;
                    }));
                }
                alts.add(stop.take().wrap(v -> false));
                return Alt.choose(alts).flatMap(more -> more ? run() : Job.unit());
            });
        }

        /** An alternative that acquires the lock (commits when the server hands it over). */
        Alt<Void> acquire() {
            return Alt.withNack(nack -> Job.defer(() -> {
                Channel<Void> reply = new Channel<>("reply");
                return requests.give(new Request(reply, nack)).map(v -> reply.take());
            }));
        }
    }

    /** Mutual exclusion holds and the lock never leaks under timeouts and cancellation of waiting clients. */
    @ParameterizedTest
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void nacksAbandonRequestsUnderCancellation(SchedulerKind kind) throws Exception {
        kind.use(s -> {
            Server server = new Server();
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger maxInside = new AtomicInteger();
            AtomicInteger entered = new AtomicInteger();
            AtomicInteger timedOut = new AtomicInteger();
            SplittableRandom random = new SplittableRandom(42);
            int clients = 300;

            Job<Void> critical = Job.run(() -> {
                int n = inside.incrementAndGet();
                maxInside.accumulateAndGet(n, Math::max);
                entered.incrementAndGet();
            }).then(Job.yieldNow()).ensure(Job.run(inside::decrementAndGet)); // a cancelled holder leaves too

            List<Fiber<Void>> fibers = new ArrayList<>();
            List<Boolean> cancelIt = new ArrayList<>();
            Job<Void> scenario = server.run().start().flatMap(serverFiber -> repeat(clients, i -> {
                // a third wait without a timeout (until granted or cancelled), the rest up to 3 ms
                int p = random.nextInt(6);
                Alt<Void> locked = server.acquire().afterJob(v -> critical.ensure(server.releases.give(null)));
                Job<Void> client = p < 2 ? locked : Alt.choose(locked,
                        Alt.after(Duration.ofMillis(p - 2)).wrap(v -> {
                            timedOut.incrementAndGet();
                            return (Void) null;
                        }));
                cancelIt.add(random.nextInt(3) == 0);
                return client.start().map(fibers::add);
            }).then(Job.defer(() -> repeat(clients, i -> cancelIt.get(i)
                    ? fibers.get(i).cancel() : fibers.get(i).outcome())))
                    // the lock is free again: a patient client gets it
                    .then(server.acquire().afterJob(v -> critical.ensure(server.releases.give(null))))
                    .then(server.stop.give(null)).then(serverFiber.join()));
            s.run(scenario);

            assertThat(maxInside.get()).as("holders at once").isEqualTo(1);
            assertThat(server.releaseWhileFree).as("a release while the lock was free").isFalse();
            assertThat(server.held).as("lock held after every client finished").isFalse();
            assertThat(server.grants).as("grants vs releases").isEqualTo(server.releasesSeen);
            assertThat(server.grants).as("grants vs critical sections entered").isEqualTo(entered.get());
            assertThat(server.grants + server.abandoned + server.pending.size())
                    .as("requests granted, abandoned or still pending").isEqualTo(server.received);
            assertThat(server.abandoned).as("requests abandoned through their nack").isPositive();
            assertThat(server.pending).as("requests left pending: their clients are all gone").allSatisfy(r ->
                    assertThat(s.run(CommJobs.poll(r.nack().wrap(v -> true), false))).isTrue());
        });
    }
}
