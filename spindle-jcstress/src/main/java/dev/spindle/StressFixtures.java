package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Worker;

/** Pieces the fiber-level jcstress tests share. */
final class StressFixtures {
    private StressFixtures() {
    }

    /** The one worker of a new engine without threads: the actors pass it as the worker they run on. */
    static Worker soleWorker(String engineName) {
        return new Engine(engineName, 1, false, e -> { }).soleWorker();
    }

    /** A root fiber of {@code w}'s engine that has started and waits until the test completes it. */
    static <A> FiberCore<A> runningRoot(Worker w) {
        FiberCore<A> f = new FiberCore<>(new Suspend<>(), w.engine(), null, false);
        f.doWork(w);
        return f;
    }

    /** A job that stays running: its fiber waits until the test completes it. */
    static final class Suspend<A> extends Job<A> {
        @Override
        void doJob(Worker w, Cont<A> k) {
        }
    }

    /** A value with a plain field, so that seeing it relies on the ordering under test. */
    static final class Box {
        int x; // not final: a final field would be seen through a race whatever the ordering

        Box(int x) {
            this.x = x;
        }
    }
}
