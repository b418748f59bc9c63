package dev.spindle.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.test.fixture.Patience;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Scheduler#bind()} (marl's bind): a thread bound to a single-threaded scheduler runs its queued work
 * while it blocks in the blocking forms of the primitives; unbound, the refusals and parks stay as they were.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@SuppressWarnings("try") // a binding is held for its scope, not referenced in it
class BindTest {

    /**
     * marl's README example, line for line: bind the scheduler to this thread (unbound on every path),
     * schedule ten tasks that each wait for a manual event and then say hello, signal the event, wait for
     * the wait group. The printfs are recorded instead of printed, to be checked.
     */
    @Test
    void marlReadmeExample() throws InterruptedException {
        List<String> printed = Collections.synchronizedList(new ArrayList<>());
        Scheduler scheduler = Scheduler.singleThreaded();
        try (Scheduler.Binding unbindOnReturn = scheduler.bind()) {
            final int numTasks = 10;
            Event sayHello = new Event(Event.Mode.MANUAL);       // an event that is manually reset
            WaitGroup saidHello = new WaitGroup(numTasks);       // a wait group counting numTasks
            for (int i = 0; i < numTasks; i++) {
                int task = i;
                scheduler.execute(() -> {                        // marl::schedule
                    try {
                        printed.add("Task " + task + " waiting to say hello...");
                        sayHello.await().await();                // blocking in a task suspends only the task
                        printed.add("Hello from task " + task + "!");
                    } finally {
                        saidHello.done();                        // defer(saidHello.done())
                    }
                });
            }
            sayHello.signal();                                   // unblock all the tasks
            saidHello.awaitBlocking();                           // wait for all tasks to complete
            printed.add("All tasks said hello.");
        }
        scheduler.close();
        assertThat(printed).hasSize(21).last().isEqualTo("All tasks said hello.");
        for (int i = 0; i < 10; i++) {
            int waiting = printed.indexOf("Task " + i + " waiting to say hello...");
            int hello = printed.indexOf("Hello from task " + i + "!");
            assertThat(waiting).as("task %d waiting", i).isNotNegative();
            assertThat(hello).as("task %d hello", i).isGreaterThan(waiting);
        }
    }

    /**
     * Unbound, the same thread's timed wait parks and nothing runs the task that would signal; bound, the
     * wait runs it. A bound timed wait with nobody to signal times out.
     */
    @Test
    void boundTimedWaitRunsTheWorkUnboundDoesNot() throws InterruptedException {
        try (Scheduler scheduler = Scheduler.singleThreaded()) {
            Event ready = new Event(Event.Mode.MANUAL);
            scheduler.execute(ready::signal);
            assertThat(ready.awaitBlocking(Duration.ofMillis(20))).isFalse();
            assertThat(ready.isSignalled()).isFalse();
            try (Scheduler.Binding b = scheduler.bind()) {
                assertThat(ready.awaitBlocking(Duration.ofHours(1))).isTrue();
                Event never = new Event(Event.Mode.AUTO);
                assertThat(never.awaitBlocking(Duration.ofMillis(20))).isFalse();
                assertThat(never.waiterCount()).isZero();
            }
        }
    }

    /** A bound thread's semaphore, mutex and condition-variable waits run the tasks that release them. */
    @Test
    void boundWaitsOfEveryKindRunTheWork() throws InterruptedException {
        try (Scheduler scheduler = Scheduler.singleThreaded(); Scheduler.Binding b = scheduler.bind()) {
            Semaphore permits = new Semaphore(0);
            scheduler.execute(permits::release);
            permits.acquireBlocking();
            assertThat(permits.availablePermits()).isZero();

            Mutex mutex = new Mutex();
            ConditionVariable changed = new ConditionVariable();
            int[] value = {0};
            Event held = new Event(Event.Mode.MANUAL);
            scheduler.execute(() -> {                              // holds the mutex across a wait for the thread
                mutex.lock().await();
                held.signal();
                Job.sleep(Duration.ofMillis(1)).await();
                value[0] = 1;
                changed.signalAll();
                mutex.unlock();
            });
            held.awaitBlocking();                                  // runs the task until it holds the mutex
            mutex.lockBlocking();                                  // runs it until it unlocks
            assertThat(value[0]).isEqualTo(1);
            scheduler.execute(() -> {
                mutex.lock().await();
                value[0] = 2;
                changed.signalAll();
                mutex.unlock();
            });
            changed.awaitBlocking(mutex, () -> value[0] == 2);     // releases the mutex, runs the task
            assertThat(value[0]).isEqualTo(2);
            mutex.unlock();
        }
    }

    /** An interrupt ends a bound thread's wait as it ends a parked one: InterruptedException, nothing linked. */
    @Test
    void interruptEndsABoundWait() throws Exception {
        try (Scheduler scheduler = Scheduler.singleThreaded(); Scheduler.Binding b = scheduler.bind()) {
            WaitGroup wg = new WaitGroup(1);
            Thread self = Thread.currentThread();
            CompletableFuture<Void> interrupter = CompletableFuture.runAsync(() -> {
                Patience.until(() -> wg.waiterCount() == 1, "the bound thread to wait");
                self.interrupt();
            });
            assertThatThrownBy(wg::awaitBlocking).isInstanceOf(InterruptedException.class);
            interrupter.get();
            assertThat(wg.waiterCount()).isZero();
            assertThat(Thread.interrupted()).isFalse();
        }
    }

    /**
     * Inside a job on the thread that drives a single-threaded scheduler, the blocking form still fails fast
     * with the clear error when the thread is unbound; bound, it runs the scheduler's other work meanwhile.
     */
    @Test
    void insideAJobOnlyABoundThreadMayBlock() {
        try (Scheduler scheduler = Scheduler.singleThreaded()) {
            WaitGroup wg = new WaitGroup(1);
            Job<Void> waitInside = Job.of(() -> {
                wg.awaitBlocking();
                return null;
            });
            assertThatThrownBy(() -> scheduler.run(waitInside)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("would block a thread that runs Spindle fibers")
                    .hasMessageContaining("job form await()");
            try (Scheduler.Binding b = scheduler.bind()) {
                scheduler.execute(wg::done);
                scheduler.run(waitInside);
                assertThat(wg.count()).isZero();
            }
        }
    }

    /** bind is refused where it cannot work; a binding ends on its own thread only, once; then rebinding works. */
    @Test
    void bindRules() throws Exception {
        try (Scheduler threaded = Scheduler.create(1)) {
            assertThatThrownBy(threaded::bind).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("only a single-threaded scheduler");
        }
        try (Scheduler scheduler = Scheduler.singleThreaded(); Scheduler other = Scheduler.singleThreaded()) {
            Scheduler.Binding b = scheduler.bind();
            assertThat(b.scheduler()).isSameAs(scheduler);
            assertThat(b.thread()).isSameAs(Thread.currentThread());
            assertThatThrownBy(other::bind).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("is bound to scheduler " + scheduler.name() + " already");
            AtomicReference<Throwable> fromElsewhere = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    b.close();
                } catch (Throwable e) {
                    fromElsewhere.set(e);
                }
            });
            t.start();
            t.join();
            assertThat(fromElsewhere.get()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed by its own thread");
            b.close();
            b.close();
            assertThat(b.toString()).endsWith("(closed)");
            try (Scheduler.Binding again = other.bind()) {
                assertThat(again.scheduler()).isSameAs(other);
            }
            assertThatThrownBy(() -> scheduler.run(Job.of(() -> scheduler.bind())))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("inside a job");
        }
        Scheduler closed = Scheduler.singleThreaded();
        closed.close();
        assertThatThrownBy(closed::bind).isInstanceOf(IllegalStateException.class);
    }
}
