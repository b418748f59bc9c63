package dev.spindle;

import dev.spindle.StressFixtures.Box;
import dev.spindle.StressFixtures.Recorder;
import dev.spindle.internal.run.Blocker;
import dev.spindle.internal.run.RunAccess;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The state that {@link BlockCancelDekker} and {@link ReblockCancelDekker} share: a running fiber about to
 * take from an empty channel on its worker, through the real {@code Channel.take().doJob}, while another
 * thread cancels it ({@code FiberImpl.requestCancel} from a foreign thread).
 */
final class TakeCancelRace {
    private final Worker worker = StressFixtures.soleWorker("jcstress-take-cancel");
    private final FiberImpl<Void> fiber = StressFixtures.runningRoot(worker);
    private final Channel<Box> channel = new Channel<>();
    /** The channel's blocker of plain waiters (its one Take object). */
    private final Blocker take = (Blocker) channel.take();
    private final Recorder k = new Recorder(fiber);
    private final Work takeStep = new Work() {
        @Override
        public void doWork(Worker w) {
            channel.take().doJob(w, k);
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            k.doHandle(w, e);
        }
    };

    /**
     * Creates the state; {@code waitedThereBefore}: the fiber's last wait was on this channel (its
     * {@code blockedOn} names the channel already, as in a ping-pong over one channel).
     */
    TakeCancelRace(boolean waitedThereBefore) {
        if (waitedThereBefore) {
            fiber.blockOn(take);
        }
    }

    /** The fiber's code takes from the channel on its worker (fresh fuel, as the worker's loop runs it). */
    void take() {
        RunAccess.run(worker, takeStep);
    }

    /** Another thread cancels the fiber. */
    void cancel() {
        fiber.requestCancel(null);
    }

    /**
     * Runs what the two sides queued, then records r1 = who failed the fiber's continuation with the
     * cancellation (1 the take, which saw it before queueing; 2 the take's re-check after queueing, which
     * withdrew the continuation onto the fiber's worker; 3 the canceller, which withdrew it onto the engine's
     * queue; 9 more than one); r2 = how many times it was resumed (each value counts 100); r3 = 1 when it
     * still waits in the channel.
     */
    void settle(III_Result r) {
        int atOnce = k.failures;
        RunAccess.runLocal(worker);
        int reChecked = k.failures - atOnce;
        StressFixtures.runQueued(worker);
        int withdrawn = k.failures - atOnce - reChecked;
        r.r1 = atOnce + reChecked + withdrawn > 1 ? 9 : atOnce == 1 ? 1 : reChecked == 1 ? 2 : withdrawn == 1 ? 3 : 0;
        r.r2 = k.failures + k.values * 100;
        r.r3 = take.removeWaiter(fiber) == null ? 0 : 1;
    }
}
