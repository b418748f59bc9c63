package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Worker;

/** Pieces the fiber-level jcstress tests share. */
final class StressFixtures {
    private StressFixtures() {
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
