package dev.spindle.sync;

import dev.spindle.LincheckOptions;
import dev.spindle.ParkedFibers;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link Ticket} against a list of done flags, by Lincheck model checking: four tickets
 * taken in order, a fiber waiting in {@code await()} on the last one ({@link ParkedFibers}), and the
 * operations {@code done} (any ticket, in any order, more than once), whether the last ticket is called,
 * its number of waiters, and cancelling the waiting fiber. The last ticket is called exactly when every
 * earlier one is done, and its waiter leaves at that moment (or when cancelled). {@link #settle} then
 * finishes every ticket and checks that the queue is empty and nobody waits.
 *
 * <p>{@link EveryTicket} observes every ticket and fails (see {@link #modelCheckEveryTicket}).
 */
@Param(name = "ticket", gen = IntGen.class, conf = "0:3")
public class TicketLincheckTest {
    private static final int TICKETS = 4;
    private static final int LAST = TICKETS - 1;

    private final Ticket.Queue queue = new Ticket.Queue("lincheck");
    final Ticket[] tickets = new Ticket[TICKETS];
    private final ParkedFibers awaiter = new ParkedFibers();

    public TicketLincheckTest() {
        for (int i = 0; i < TICKETS; i++) {
            tickets[i] = queue.take();
        }
        awaiter.park(tickets[LAST].await(), () -> tickets[LAST].waiterCount() == 1);
    }

    @Operation
    public void done(@Param(name = "ticket") int i) {
        tickets[i].done();
    }

    @Operation
    public boolean isLastCalled() {
        return tickets[LAST].isCalled();
    }

    @Operation
    public int lastWaiters() {
        return tickets[LAST].waiterCount();
    }

    /**
     * Once per scenario: a second, concurrent request returns at once (the flag is already set) while the
     * first may still be withdrawing the fiber, so only the first one's return promises the withdrawal.
     */
    @Operation(runOnce = true)
    public void cancelAwait() {
        awaiter.cancel(0);
    }

    /** After the scenario: finishes every ticket, runs the awaiter, and checks that nothing is left. */
    @Validate
    public void settle() {
        for (Ticket t : tickets) {
            t.done();
        }
        awaiter.close();
        for (Ticket t : tickets) {
            if (!t.isCalled() || t.waiterCount() != 0) {
                throw new AssertionError("after every ticket was done: " + t);
            }
        }
        if (queue.pendingTickets() != 0) {
            throw new AssertionError("tickets left in " + queue);
        }
    }

    @Test
    @Tag("stress") // on the method: a JUnit annotation on this public class would trip -Xlint:exports
    void modelCheck() {
        LincheckOptions.check(TicketLincheckTest.class, Spec.class);
    }

    /**
     * Watches every ticket: one {@code done} that makes several tickets due must make them called at once,
     * so no thread sees ticket i called and then ticket i + 1 not called when the done that was due for both
     * has happened.
     */
    @Test
    @Tag("stress")
    void modelCheckEveryTicket() {
        LincheckOptions.check(EveryTicket.class, EveryTicketSpec.class);
    }

    /** The sequential specification: which tickets are done; whether the awaiter was cancelled. */
    public static class Spec {
        private final boolean[] done = new boolean[TICKETS];
        private boolean cancelled;

        public void done(int i) {
            done[i] = true;
        }

        public boolean isCalled(int i) {
            for (int j = 0; j < i; j++) {
                if (!done[j]) {
                    return false;
                }
            }
            return true;
        }

        public boolean isLastCalled() {
            return isCalled(LAST);
        }

        public int lastWaiters() {
            return cancelled || isLastCalled() ? 0 : 1;
        }

        public void cancelAwait() {
            cancelled = true;
        }
    }

    /** The same scenario, observing whether any ticket is called. */
    public static final class EveryTicket extends TicketLincheckTest {
        @Operation
        public boolean isCalled(@Param(name = "ticket") int i) {
            return tickets[i].isCalled();
        }
    }

    /** {@link Spec} for {@link EveryTicket}. */
    public static final class EveryTicketSpec extends Spec {
    }
}
