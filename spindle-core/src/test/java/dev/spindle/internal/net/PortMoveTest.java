package dev.spindle.internal.net;

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
        Engine a = engine("port-move-a");
        Engine b = engine("port-move-b");
        try (Loopback pair = Loopback.open()) {
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
        } finally {
            a.close();
            b.close();
        }
    }
}
