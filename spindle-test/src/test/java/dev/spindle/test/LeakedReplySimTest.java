package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Alt;
import dev.spindle.Channel;
import dev.spindle.Job;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Planted bug 3: a request/reply server that leaks a reply. A client sends a request carrying a reply
 * channel and then chooses between taking the reply and a 10 ms timeout. The server answers after 10 ms
 * with a plain {@code give}: when the client's choose picks the timeout, nobody will ever take that reply,
 * so the server waits forever and serves no one else. Scheduling order happens to deliver the reply first;
 * exploration finds the schedule where the timeout wins the tie, and reports the server stuck in its give.
 */
class LeakedReplySimTest {

    /** Serves {@code count} requests; the bug: a plain give of the reply, with no way out if nobody takes it. */
    private static Job<Void> server(Channel<Channel<String>> requests, int count) {
        if (count == 0) {
            return Job.unit();
        }
        return requests.take()
                .flatMap(reply -> Job.sleep(Duration.ofMillis(10)).then(reply.give("pong")))
                .then(Job.defer(() -> server(requests, count - 1)));
    }

    /** One request with a 10 ms timeout on the reply. */
    private static Job<String> request(Channel<Channel<String>> requests) {
        return Job.defer(() -> {
            Channel<String> reply = new Channel<>("reply");
            return requests.give(reply).then(Alt.choose(
                    reply.take(),
                    Alt.after(Duration.ofMillis(10)).wrap(v -> "timeout")));
        });
    }

    /** Two requests in turn; then close() checks that every fiber, the server included, has finished. */
    static final Scenario TWO_REQUESTS = sim -> {
        Channel<Channel<String>> requests = new Channel<>("requests");
        sim.run(server(requests, 2).named("server").startDetached()
                .then(request(requests).named("client-1").start()).flatMap(f -> f.join())
                .then(request(requests).named("client-2").start()).flatMap(f -> f.join()));
        sim.close();
    };

    /** Scheduling order delivers both replies in time. */
    @Test
    void schedulingOrderHidesTheLeak() throws Exception {
        TWO_REQUESTS.run(Simulation.create());
    }

    /** Exploration finds the leaked reply: a deadlock report with the server blocked giving a reply. */
    @Test
    void explorationFindsTheLeakedReply() {
        ExplorationReport report = Simulation.explore(1_000, 42, TWO_REQUESTS);
        System.out.println(report);

        assertThat(report.failed()).isTrue();
        assertThat(report.failure()).isInstanceOf(DeadlockException.class);
        DeadlockException deadlock = (DeadlockException) report.failure();
        assertThat(deadlock.blocked()).filteredOn(f -> "server".equals(f.name())).singleElement()
                .satisfies(f -> assertThat(f.waitsOn()).contains("Channel[reply", "givers=1"));
        assertThat(deadlock.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(10));
        assertThat(report.toString()).contains("\"client-1\" waits on choose", "\"server\" waits on timer due in 10 ms");
    }
}
