package dev.spindle.internal.run;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.Lincheck;

/**
 * The Lincheck model-checking scenarios of the park/wake decision, run by {@link ParkWakeLincheckTest} in a
 * JVM of their own started with {@code -Dspindle.idleSpins=1}: with the default 200 spins before parking,
 * the few instructions where a wake-up can be lost hide behind hundreds of switch points and the model
 * checker does not reach them (a planted lost wake-up went unnoticed); with one spin it finds it at once.
 *
 * <p>The engine is the single-threaded kind so that the scenario's own threads drive its worker (Lincheck
 * must create every thread it schedules); its idle protocol is the one the multi-threaded engine uses.
 * Usage: {@code ParkWakeModel <scenario> <invocations>}; exits non-zero with Lincheck's interleaving
 * report on a failure.
 */
final class ParkWakeModel {
    /** Scenario names, in the order the test runs them. */
    static final String[] SCENARIOS = {"onePush", "twoPushes", "stopRequest"};

    private ParkWakeModel() {
    }

    /** A work item that counts its runs. */
    private static final class Count extends Work {
        private final AtomicInteger runs;

        Count(AtomicInteger runs) {
            this.runs = runs;
        }

        @Override
        public void doWork(Worker w) {
            runs.incrementAndGet();
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
            throw new AssertionError(e);
        }
    }

    public static void main(String[] args) {
        if (Worker.IDLE_SPINS != 1) {
            throw new IllegalStateException("run with -Dspindle.idleSpins=1, was " + Worker.IDLE_SPINS);
        }
        int invocations = Integer.parseInt(args[1]);
        switch (args[0]) {
            case "onePush" -> Lincheck.runConcurrentTest(invocations, () -> pushes(1));
            case "twoPushes" -> Lincheck.runConcurrentTest(invocations, () -> pushes(2));
            case "stopRequest" -> Lincheck.runConcurrentTest(invocations, ParkWakeModel::stopRequest);
            default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
        }
        System.out.println("scenario " + args[0] + ": " + invocations + " invocations, no failure");
    }

    /** A worker going idle while {@code n} threads push one item each: every item runs, the worker returns. */
    private static void pushes(int n) {
        Engine engine = new Engine("lincheck", 1, false, e -> { });
        Worker w = engine.workers[0];
        AtomicInteger runs = new AtomicInteger();
        Thread[] threads = new Thread[n + 1];
        threads[0] = new Thread(() -> w.runUntil(() -> runs.get() == n));
        for (int i = 1; i <= n; i++) {
            threads[i] = new Thread(() -> engine.pushGlobal(new Count(runs)));
        }
        startAndJoin(threads);
        check(runs.get() == n, "each of the " + n + " items ran once, ran " + runs.get());
    }

    /** A worker going idle while another thread makes its stop condition true and wakes it: it returns. */
    private static void stopRequest() {
        Engine engine = new Engine("lincheck", 1, false, e -> { });
        Worker w = engine.workers[0];
        AtomicBoolean stop = new AtomicBoolean();
        Thread driver = new Thread(() -> engine.await(stop::get)); // drives the worker: single-threaded
        Thread stopper = new Thread(() -> {
            stop.set(true);
            engine.wake(driver);
        });
        startAndJoin(driver, stopper);
        check(w.thread == null, "the driver let go of the worker");
    }

    /** Plain check: AssertJ's assertion objects confuse Lincheck's method analysis. */
    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("expected: " + what);
        }
    }

    private static void startAndJoin(Thread... threads) {
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }
}
