package dev.spindle.internal.net;

import static dev.spindle.internal.net.NetInternals.awaitBlockingSelect;
import static dev.spindle.internal.net.NetInternals.engine;
import static dev.spindle.internal.net.NetInternals.work;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.internal.net.NetInternals.Loopback;
import dev.spindle.internal.run.Engine;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A blocking select is woken for interest added after it began, whatever happened to earlier wakeups. The
 * race this pins down: a waker reads {@code blocking} just before a select ends and issues its wakeup
 * after, so the "wakeup pending" flag is set with no select to consume it; a busy worker's selectNow then
 * consumes the wakeup and leaves the flag set. The test puts the poller in that state directly (the flag
 * set, no wakeup pending, nobody selecting), lets the worker go idle into a blocking select, and adds read
 * interest on a socket with a byte waiting: the waiter must run.
 */
class NetPollerWakeTest {
    private static final VarHandle WAKE_PENDING;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.privateLookupIn(NetPoller.class, MethodHandles.lookup());
            WAKE_PENDING = l.findVarHandle(NetPoller.class, "wakePending", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Test
    void interestAddedDuringABlockingSelectWakesItAfterAStaleWakeup() throws Exception {
        Engine engine = engine("poller-wake-test");
        try (Loopback pair = Loopback.open()) {
            selectAfterAStaleWakeup(engine);
            pair.client().write(ByteBuffer.wrap(new byte[] {42}));
            CountDownLatch readerRan = new CountDownLatch(1);
            new Port(pair.accepted()).add(work(readerRan::countDown), SelectionKey.OP_READ, engine.worker(0));
            assertThat(readerRan.await(10, TimeUnit.SECONDS))
                    .as("the reader, made ready by the select that its interest must wake").isTrue();
        } finally {
            engine.close();
        }
    }

    /** The same flag guards the wakeup of a worker signalled for new work while it selects. */
    @Test
    void workPushedDuringABlockingSelectRunsAfterAStaleWakeup() throws Exception {
        Engine engine = engine("poller-wake-test");
        try {
            selectAfterAStaleWakeup(engine);
            CountDownLatch ran = new CountDownLatch(1);
            engine.enqueue(work(ran::countDown));
            assertThat(ran.await(10, TimeUnit.SECONDS)).as("work pushed while the only worker selects").isTrue();
        } finally {
            engine.close();
        }
    }

    /**
     * Leaves {@code engine}'s only worker in a blocking select that began with the wakeup flag set and no
     * wakeup pending: the state a late waker leaves once a busy worker's selectNow consumed its wakeup.
     */
    private static void selectAfterAStaleWakeup(Engine engine) throws InterruptedException {
        NetPoller poller = NetPoller.of(engine.worker(0));
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        engine.enqueue(work(() -> { // holds the worker while the flag is set: nobody selects meanwhile
            holding.countDown();
            await(release, "the test's release");
        }));
        await(holding, "the worker to take the item");
        WAKE_PENDING.setVolatile(poller, true);
        release.countDown();
        awaitBlockingSelect(poller);
    }

    private static void await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("timed out waiting for " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
