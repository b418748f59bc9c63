package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.RunAccess;
import dev.spindle.internal.run.FiberBase;
import dev.spindle.internal.run.Work;
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
    static <A> FiberImpl<A> runningRoot(Worker w) {
        FiberImpl<A> f = new FiberImpl<>(new Suspend<>(), w.engine(), null, false);
        f.doWork(w);
        return f;
    }

    /**
     * Creates a child of {@code parent} that stays running once started and links it, as the parent's own
     * code does in {@code FiberJobs.Start} (on {@code w}, the parent's worker); returns the child.
     */
    static FiberImpl<Void> linkChild(Worker w, FiberImpl<?> parent) {
        FiberImpl<Void> c = new FiberImpl<>(new Suspend<>(), w.engine(), parent, false);
        parent.addChild(w, c);
        return c;
    }

    /** The payload of {@code b} as a result: -1 when there is no value. */
    static int valueOf(Box b) {
        return b == null ? -1 : b.x;
    }

    /**
     * Runs, on {@code w} (the calling thread's worker), every item left on {@code w}'s stack and in its
     * engine's global queue, as the worker would next.
     */
    static void runQueued(Worker w) {
        RunAccess.runLocal(w);
        Work wk;
        while ((wk = RunAccess.pollGlobal(w.engine())) != null) {
            RunAccess.run(w, wk);
        }
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

    /** A continuation of a fiber that records how it was resumed. */
    static final class Recorder extends Cont<Box> {
        /** How many times it was resumed with a value. */
        int values;
        /** The last value it was resumed with. */
        Box got;
        /** How many times it was failed (cancellation included). */
        int failures;
        /** The last failure. */
        Throwable failure;

        Recorder(FiberBase<?> fiber) {
            super(fiber);
        }

        @Override
        public void doCont(Worker w, Box a) {
            values++;
            got = a;
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            failures++;
            failure = e;
        }
    }
}
