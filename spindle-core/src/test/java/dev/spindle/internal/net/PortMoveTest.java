package dev.spindle.internal.net;

import static dev.spindle.internal.net.NetInternals.awaitBlockingSelect;
import static dev.spindle.internal.net.NetInternals.engine;
import static dev.spindle.internal.net.NetInternals.work;
import static dev.spindle.internal.net.NetInternals.workOn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.internal.net.NetInternals.Loopback;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Work;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A port whose socket a fiber of another scheduler waits on moves its registration to that scheduler's
 * poller, and readiness that the poller it left reports late (a select that began before the move) neither
 * takes the new waiter away nor runs it on the old scheduler.
 */
class PortMoveTest {
    @Test
    void readinessReportedByThePollerAPortLeftIsIgnored() throws Exception {
        withTwoEngines((a, b, pair) -> {
            Port port = new Port(pair.accepted());
            Work first = work(() -> {
                throw new AssertionError("the withdrawn waiter of the first scheduler ran");
            });
            port.add(first, SelectionKey.OP_READ, a.worker(0));
            port.remove(first); // nobody waits through a's poller now, which stays open

            CountDownLatch ran = new CountDownLatch(1);
            CountDownLatch added = new CountDownLatch(1);
            Thread[] ranOn = new Thread[1];
            Work waiter = work(() -> {
                ranOn[0] = Thread.currentThread();
                ran.countDown();
            });
            b.enqueue(workOn(w -> { // registers from b's worker, which then goes idle and selects
                port.add(waiter, SelectionKey.OP_READ, w);
                added.countDown();
            }));
            assertThat(added.await(10, TimeUnit.SECONDS)).as("b's worker to register the waiter").isTrue();

            port.ready(SelectionKey.OP_READ, NetPoller.of(a.worker(0)), true); // a's late report
            assertThat(port.toString()).contains("1 waiting");

            pair.client().write(ByteBuffer.wrap(new byte[] {7}));
            assertThat(ran.await(10, TimeUnit.SECONDS)).as("the waiter, woken by b's poller").isTrue();
            assertThat(ranOn[0].getName()).contains("port-move-b");

            // and back to a, whose selector still holds the key the port left there
            assertThat(waitOn(port, a, SelectionKey.OP_READ).getName()).contains("port-move-a");
        });
    }

    @Test
    void aPortMovesBackAndForthBetweenTwoOpenSchedulers() throws Exception {
        withTwoEngines((a, b, pair) -> {
            Port port = new Port(pair.accepted());
            for (int i = 0; i < 20; i++) {
                Engine e = i % 2 == 0 ? a : b;
                // the accepted end is always writable: each wait is made ready by e's own poller
                assertThat(waitOn(port, e, SelectionKey.OP_WRITE).getName()).as("round " + i)
                        .contains(e == a ? "port-move-a" : "port-move-b");
            }
            assertThat(pair.client().isConnected()).isTrue();
        });
    }

    /**
     * A move back to a scheduler whose selector is blocked in a select, registered by a thread other than the
     * selecting one (another worker of that scheduler): the key the port left there must be taken up again. A
     * key cancelled on leaving would still sit in that selector until its select returns, and registering the
     * channel there meanwhile would fail.
     */
    @Test
    void aMoveBackWhileTheOldSelectorBlocksTakesUpItsKey() throws Exception {
        withTwoEngines((a, b, pair) -> {
            Port port = new Port(pair.accepted());
            assertThat(waitOn(port, a, SelectionKey.OP_WRITE).getName()).contains("port-move-a");
            assertThat(waitOn(port, b, SelectionKey.OP_WRITE).getName()).contains("port-move-b");
            NetPoller pollerOfA = NetPoller.of(a.worker(0));
            awaitBlockingSelect(pollerOfA); // a's only worker, idle since its waiter ran

            CountDownLatch ran = new CountDownLatch(1);
            port.add(work(ran::countDown), SelectionKey.OP_WRITE, a.worker(0)); // from this thread
            assertThat(ran.await(10, TimeUnit.SECONDS)).as("the waiter, woken by a's poller").isTrue();
        });
    }

    /** Registers a waiter for {@code op} from {@code e}'s worker and gives the thread that ran it once ready. */
    private static Thread waitOn(Port port, Engine e, int op) throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        Thread[] ranOn = new Thread[1];
        Work waiter = work(() -> {
            ranOn[0] = Thread.currentThread();
            ran.countDown();
        });
        e.enqueue(workOn(w -> port.add(waiter, op, w)));
        assertThat(ran.await(10, TimeUnit.SECONDS)).as("the waiter registered from " + e).isTrue();
        return ranOn[0];
    }

    /** A test body given two engines of one worker each (closed after it) and a connected loopback pair. */
    private interface TwoEngines {
        void run(Engine a, Engine b, Loopback pair) throws Exception;
    }

    private static void withTwoEngines(TwoEngines body) throws Exception {
        Engine a = engine("port-move-a");
        Engine b = engine("port-move-b");
        try (Loopback pair = Loopback.open()) {
            body.run(a, b, pair);
        } finally {
            a.close();
            b.close();
        }
    }
}
