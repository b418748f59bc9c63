package dev.spindle;

import dev.spindle.internal.run.CancelSignal;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Timer;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import java.time.Instant;

/** Jobs about time: sleeping for a while or until an instant, reading the clock, yielding. */
final class TimeJobs {
    private TimeJobs() {
    }

    /** {@code Job.sleep(d)}. */
    static final class Sleep extends Job<Void> {
        private final long nanos;

        Sleep(long nanos) {
            this.nanos = nanos;
        }

        @Override
        void doJob(Worker w, Cont<Void> k) {
            FiberImpl<?> self = (FiberImpl<?>) k.fiber();
            if (self.cancelPending()) {
                Trampoline.fail(w, k, CancelSignal.INSTANCE);
                return;
            }
            if (nanos == 0) {
                Trampoline.succeed(w, k, null);
                return;
            }
            Engine e = self.engine; // the queue Timer.removeWaiter finds again through the fiber
            Timer t = new Timer(e.nanoTime() + nanos, k);
            self.blockOn(t);
            e.timers().schedule(t);
            self.checkCancelWhileBlocked(w, t);
        }
    }

    /** {@code Job.sleepUntil(instant)}: a sleep for what is left until the instant, on the engine's clock. */
    static final class SleepUntil extends Job<Void> {
        private final Instant deadline;

        SleepUntil(Instant deadline) {
            this.deadline = deadline;
        }

        @Override
        void doJob(Worker w, Cont<Void> k) {
            new Sleep(Clock.nanosUntil(w.engine(), deadline)).doJob(w, k);
        }
    }

    /** {@code Job.now()}: the scheduler's clock. */
    static final class Now extends Job<Instant> {
        static final Now INSTANCE = new Now();

        @Override
        void doJob(Worker w, Cont<Instant> k) {
            Trampoline.succeed(w, k, Clock.instant(w.engine()));
        }
    }

    /** {@code Job.yieldNow()}: continue after the work queued so far. */
    static final class YieldNow extends Job<Void> {
        static final YieldNow INSTANCE = new YieldNow();

        @Override
        void doJob(Worker w, Cont<Void> k) {
            if (k.fiber() != null && k.fiber().cancelPending()) {
                Trampoline.fail(w, k, CancelSignal.INSTANCE);
                return;
            }
            k.setResumeValue(null);
            w.engine().pushGlobal(k);
        }
    }
}
