package dev.spindle.sync;

import static dev.spindle.sync.Step.act;
import static dev.spindle.sync.Step.repeat;
import static dev.spindle.sync.Step.seq;
import static dev.spindle.sync.Step.waitOn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Job;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** marl's ticket_test under every {@link Actors} kind, plus early done(), repeated done() and cancellation. */
class TicketTest {
    static Step await(Ticket t) {
        return waitOn(t.await(), t::awaitBlocking);
    }

    /**
     * marl Ticket: 1,000 tickets taken in order, awaited by concurrent actors started in that order, run
     * strictly in take order.
     */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void thousandTicketsRunInTakeOrder(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Ticket.Queue queue = h.watch(new Ticket.Queue("order"), q -> 0);
            int count = 1000;
            int[] result = new int[count];
            AtomicInteger next = new AtomicInteger();
            List<Ticket> tickets = new ArrayList<>();
            h.run(seq(
                    repeat(count, i -> {
                        Ticket ticket = h.watch(queue.take(), Ticket::waiterCount);
                        tickets.add(ticket);
                        return h.spawn(seq(await(ticket), act(() -> result[next.getAndIncrement()] = i),
                                act(ticket::done)));
                    }),
                    Step.lazy(() -> await(queue.take()))));
            for (int i = 0; i < count; i++) {
                assertThat(result[i]).as("result[%d]", i).isEqualTo(i);
            }
            assertThat(queue.pendingTickets()).as("the last, never done").isEqualTo(1);
        }
    }

    @Test
    void firstTicketIsCalledAtOnceOthersWait() {
        Ticket.Queue queue = new Ticket.Queue();
        Ticket a = queue.take();
        Ticket b = queue.take();
        Ticket c = queue.take();
        assertThat(a.isCalled()).isTrue();
        assertThat(b.isCalled()).isFalse();
        a.done();
        assertThat(b.isCalled()).isTrue();
        assertThat(c.isCalled()).isFalse();
        assertThat(queue.toString()).contains("pending=2");
    }

    /** done() before a ticket's turn gives it up in advance; a later done() is a no-op. */
    @Test
    void earlyAndRepeatedDone() {
        Ticket.Queue queue = new Ticket.Queue();
        Ticket a = queue.take();
        Ticket b = queue.take();
        Ticket c = queue.take();
        Ticket d = queue.take();
        c.done();
        b.done();
        assertThat(c.isCalled()).isFalse();
        assertThat(d.isCalled()).isFalse();
        a.done();
        assertThat(b.isCalled()).isTrue();
        assertThat(c.isCalled()).isTrue();
        assertThat(d.isCalled()).isTrue();
        a.done();
        b.done();
        assertThat(queue.pendingTickets()).isEqualTo(1);
        d.done();
        assertThat(queue.pendingTickets()).isZero();
        Ticket e = queue.take();
        assertThat(e.isCalled()).as("an empty queue calls its next ticket at once").isTrue();
    }

    /** Concurrent done() calls in any order still call every ticket after all earlier ones are done. */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#all")
    void shuffledDoneCallsKeepTheOrder(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Ticket.Queue queue = new Ticket.Queue();
            int n = mode.scale(200, 100);
            List<Ticket> tickets = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                tickets.add(h.watch(queue.take(), Ticket::waiterCount));
            }
            AtomicInteger violations = new AtomicInteger();
            boolean[] done = new boolean[n];
            // actor i finishes ticket i without waiting for its turn (half of them), or after it (the others)
            h.run(repeat(n, i -> h.spawn(seq(
                    i % 2 == 0 ? await(tickets.get(i)) : act(() -> { }),
                    act(() -> {
                        synchronized (done) {
                            done[i] = true;
                        }
                        tickets.get(i).done();
                    })))));
            for (int i = 0; i < n; i++) {
                assertThat(tickets.get(i).isCalled()).isTrue();
            }
            assertThat(violations).hasValue(0);
            assertThat(queue.pendingTickets()).isZero();
        }
    }

    /** A fiber cancelled in await() stops waiting; the ticket keeps its place until done(). */
    @ParameterizedTest
    @MethodSource("dev.spindle.sync.Actors#fiberKinds")
    void cancelledWaiterKeepsThePlace(Actors mode) {
        try (Harness h = new Harness(mode)) {
            Ticket.Queue queue = new Ticket.Queue();
            Ticket first = queue.take();
            Ticket second = h.watch(queue.take(), Ticket::waiterCount);
            Ticket third = h.watch(queue.take(), Ticket::waiterCount);
            String r = h.runJob(second.await().start().flatMap(f ->
                    WaitGroupTest.untilWaiters(second::waiterCount, 1).then(f.cancel()).then(f.outcome()))
                    .map(Object::toString));
            assertThat(r).contains("Cancelled");
            first.done();
            assertThat(second.isCalled()).isTrue();
            assertThat(third.isCalled()).isFalse();
            second.done();
            assertThat(third.isCalled()).isTrue();
            h.runJob(third.await().then(Job.run(third::done)));
        }
    }
}
