package dev.spindle.sync;

import dev.spindle.LincheckOptions;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck model checking of the thread side of the wait queue (park, wake, withdraw): every interleaving
 * of a few threads, with a check of what must hold at the end. The races: a signal against a thread about
 * to park (no lost wake-up), an interrupt against a grant (the grant is taken exactly once: by the thread,
 * or left in the primitive), a timeout against a signal (likewise), and hand-over of a mutex.
 */
public class ThreadWaitLincheckTest {
    private static final int INVOCATIONS = LincheckOptions.INVOCATIONS;

    @Test
    @Tag("stress")
    void signalAgainstPark() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            Event e = new Event(Event.Mode.AUTO);
            Thread waiter = new Thread(() -> {
                try {
                    e.awaitBlocking();
                } catch (InterruptedException x) {
                    throw new AssertionError(x);
                }
            });
            Thread signaller = new Thread(e::signal);
            startAndJoin(waiter, signaller);
            check(!e.isSignalled(), "the waiter consumed the signal");
            check(e.waiterCount() == 0, "no waiter left");
        });
    }

    @Test
    @Tag("stress")
    void interruptAgainstGrant() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            Semaphore s = new Semaphore(0);
            AtomicBoolean acquired = new AtomicBoolean();
            Thread waiter = new Thread(() -> {
                try {
                    s.acquireBlocking();
                    acquired.set(true);
                } catch (InterruptedException x) {
                    acquired.set(false);
                }
            });
            Thread releaser = new Thread(s::release);
            waiter.start();
            releaser.start();
            waiter.interrupt();
            join(waiter, releaser);
            check(acquired.get() != (s.availablePermits() == 1),
                    "the permit is held by the waiter or left in the semaphore, exactly one");
            check(s.waiterCount() == 0, "no waiter left");
        });
    }

    @Test
    @Tag("stress")
    void timeoutAgainstSignal() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            Event e = new Event(Event.Mode.AUTO);
            AtomicBoolean got = new AtomicBoolean();
            Thread waiter = new Thread(() -> {
                try {
                    got.set(e.awaitBlocking(Duration.ofNanos(1)));
                } catch (InterruptedException x) {
                    throw new AssertionError(x);
                }
            });
            Thread signaller = new Thread(e::signal);
            startAndJoin(waiter, signaller);
            check(got.get() != e.isSignalled(), "the signal reached the waiter or stayed, exactly one");
            check(e.waiterCount() == 0, "no waiter left");
        });
    }

    @Test
    @Tag("stress")
    void mutexHandOver() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            Mutex m = new Mutex();
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            Runnable critical = () -> {
                try {
                    m.lockBlocking();
                } catch (InterruptedException x) {
                    throw new AssertionError(x);
                }
                if (inside.incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
                inside.decrementAndGet();
                m.unlock();
            };
            startAndJoin(new Thread(critical), new Thread(critical), new Thread(critical));
            check(overlaps.get() == 0, "mutual exclusion");
            check(!m.isLocked() && m.waiterCount() == 0, "free and nobody waiting at the end");
        });
    }

    private static void startAndJoin(Thread... threads) {
        for (Thread t : threads) {
            t.start();
        }
        join(threads);
    }

    private static void join(Thread... threads) {
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("violated: " + what);
        }
    }
}
