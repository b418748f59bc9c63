package dev.spindle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.StressFixtures.Box;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.RunAccess;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Work;
import dev.spindle.internal.run.Worker;
import dev.spindle.sync.Event;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The lock-free fast path of the coordination primitives ({@code dev.spindle.sync}), through a MANUAL
 * {@link Event}: {@code signal()} writes the volatile {@code signalled} under the wait queue's lock, and a
 * fiber's {@code await()} first reads it without the lock and, seeing it set, continues at once. What the
 * signalling thread wrote before {@code signal()} must be visible to a fiber that took the fast path, as
 * it is to one that waited and was resumed. (Semaphore's {@code permits}, Mutex's {@code locked}, Pool's
 * {@code free}, Ticket's {@code called} and WaitGroup's {@code count} are volatile fields read the same
 * way.)
 *
 * <p>Result: r1 = how the fiber's await ended (1 at once through the fast path or under the lock, 2 it waited
 * and the signal resumed it through the engine's queue); r2 = the payload the fiber then read (-1 none).
 *
 * <p>On x86 the hardware keeps the stores in order, and the loads; a weakly ordered machine needs the
 * volatile modes.
 */
@JCStressTest
@Outcome(id = "1, 42", expect = ACCEPTABLE, desc = "the await found the event signalled, and the payload")
@Outcome(id = "2, 42", expect = ACCEPTABLE, desc = "the await waited; the signal resumed it, and it read the payload")
@Outcome(expect = FORBIDDEN, desc = "the signal seen without what was written before it, or the fiber not resumed once")
@State
public class EventSignalFastPath {
    private final Worker worker = StressFixtures.soleWorker("jcstress-event");
    private final Event event = new Event(Event.Mode.MANUAL);
    private final Arrival k = new Arrival(StressFixtures.runningRoot(worker));
    private final Work await = new Work() {
        @Override
        public void doWork(Worker w) {
            event.await().doJob(w, k);
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            k.doHandle(w, e);
        }
    };
    /** What the signalling thread writes before it signals. */
    private Box payload;

    /** Creates the state of one sample: an unsignalled event. */
    public EventSignalFastPath() {
    }

    /** Another thread writes a payload, then signals. */
    @Actor
    public void signal() {
        payload = new Box(42);
        event.signal();
    }

    /** A fiber awaits the event; if it continued at once, it reads the payload. */
    @Actor
    public void fiber(II_Result r) {
        RunAccess.run(worker, await);
        if (k.values == 1) {
            r.r1 = 1;
            r.r2 = StressFixtures.valueOf(payload);
        }
    }

    /** A fiber that waited: the signal queued its resumption; it runs and reads the payload. */
    @Arbiter
    public void resume(II_Result r) {
        if (r.r1 == 0) {
            StressFixtures.runQueued(worker);
            r.r1 = k.values == 1 ? 2 : -k.values - 10 * k.failures;
            r.r2 = StressFixtures.valueOf(payload);
        }
    }

    /** The fiber's continuation after the await: counts how it was resumed. */
    private static final class Arrival extends Cont<Void> {
        int values;
        int failures;

        Arrival(FiberBase<?> fiber) {
            super(fiber);
        }

        @Override
        public void doCont(Worker w, Void v) {
            values++;
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            failures++;
        }
    }
}
