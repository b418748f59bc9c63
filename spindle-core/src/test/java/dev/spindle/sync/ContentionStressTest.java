package dev.spindle.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.StressScale;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Larger and mixed workloads: fibers of two schedulers and plain threads contending on the same primitives,
 * and many rounds of random cancellation. Each ends with the primitives' waiter counts at zero, every
 * permit, lock and pool place back, and the schedulers closed.
 */
@Tag("stress")
class ContentionStressTest {
    /** Fibers of two schedulers and plain threads increment one counter under one mutex. */
    @Test
    void mutexShardedAcrossSchedulersAndThreads() throws Exception {
        Mutex mutex = new Mutex("shared");
        int[] counter = {0};
        int perActor = StressScale.of(2_000);
        int fibersPerScheduler = 8;
        int threads = 4;
        try (Scheduler a = Scheduler.create(4); Scheduler b = Scheduler.create(2)) {
            Job<Void> actor = Job.defer(() -> loop(perActor, mutex.withLock(Job.run(() -> counter[0]++))));
            List<java.util.concurrent.CompletableFuture<Void>> futures = new ArrayList<>();
            for (int i = 0; i < fibersPerScheduler; i++) {
                futures.add(a.submit(actor));
                futures.add(b.submit(actor));
            }
            List<Thread> ts = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                Thread t = new Thread(() -> {
                    for (int j = 0; j < perActor; j++) {
                        try {
                            mutex.lockBlocking();
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                        try {
                            counter[0]++;
                        } finally {
                            mutex.unlock();
                        }
                    }
                });
                ts.add(t);
                t.start();
            }
            for (var f : futures) {
                f.get();
            }
            for (Thread t : ts) {
                t.join();
            }
        }
        mutex.lockBlocking();
        try {
            assertThat(counter[0]).isEqualTo(perActor * (2 * fibersPerScheduler + threads));
        } finally {
            mutex.unlock();
        }
        assertThat(mutex.waiterCount()).isZero();
    }

    /** A bounded buffer on a mutex and two condition variables, fiber and thread producers and consumers. */
    @Test
    void boundedBufferWithConditionVariables() throws Exception {
        Mutex mutex = new Mutex();
        ConditionVariable notFull = new ConditionVariable("not full");
        ConditionVariable notEmpty = new ConditionVariable("not empty");
        Deque<Integer> buffer = new ArrayDeque<>(); // guarded by mutex
        int capacity = 4;
        int perProducer = StressScale.of(5_000);
        int producers = 4; // 2 fibers, 2 threads
        int consumers = 4; // 2 fibers, 2 threads
        int total = perProducer * producers;
        BitSet seen = new BitSet(total); // guarded by mutex
        AtomicInteger duplicates = new AtomicInteger();
        AtomicInteger consumed = new AtomicInteger();
        int perConsumer = total / consumers;
        try (Scheduler s = Scheduler.create(4)) {
            List<java.util.concurrent.CompletableFuture<Void>> futures = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int base = p * perProducer;
                if (p % 2 == 0) {
                    futures.add(s.submit(Job.defer(() -> loopIndexed(perProducer, i -> mutex.withLock(
                            notFull.await(mutex, () -> buffer.size() < capacity).then(Job.run(() -> {
                                buffer.addLast(base + i);
                                notEmpty.signal();
                            })))))));
                } else {
                    threads.add(new Thread(() -> {
                        for (int i = 0; i < perProducer; i++) {
                            int item = base + i;
                            lockThen(mutex, () -> {
                                notFull.awaitBlocking(mutex, () -> buffer.size() < capacity);
                                buffer.addLast(item);
                                notEmpty.signal();
                            });
                        }
                    }));
                }
            }
            Runnable takeOne = () -> {
                int v = buffer.removeFirst();
                if (seen.get(v)) {
                    duplicates.incrementAndGet();
                }
                seen.set(v);
                consumed.incrementAndGet();
                notFull.signal();
            };
            for (int c = 0; c < consumers; c++) {
                if (c % 2 == 0) {
                    futures.add(s.submit(Job.defer(() -> loop(perConsumer, mutex.withLock(
                            notEmpty.await(mutex, () -> !buffer.isEmpty()).then(Job.run(takeOne)))))));
                } else {
                    threads.add(new Thread(() -> {
                        for (int i = 0; i < perConsumer; i++) {
                            lockThen(mutex, () -> {
                                notEmpty.awaitBlocking(mutex, () -> !buffer.isEmpty());
                                takeOne.run();
                            });
                        }
                    }));
                }
            }
            threads.forEach(Thread::start);
            for (var f : futures) {
                f.get();
            }
            for (Thread t : threads) {
                t.join();
            }
        }
        assertThat(consumed).hasValue(total);
        assertThat(duplicates).hasValue(0);
        assertThat(seen.cardinality()).isEqualTo(total);
        assertThat(notFull.waiterCount() + notEmpty.waiterCount() + mutex.waiterCount()).isZero();
    }

    /** Many rounds of random cancellation against Semaphore, Mutex, Pool and timed Event waits together. */
    @Test
    void randomCancellationConservesEverything() {
        Semaphore permits = new Semaphore(3);
        Mutex mutex = new Mutex();
        Pool<int[]> pool = Pool.bounded(2, () -> new int[1]);
        Event event = new Event(Event.Mode.AUTO);
        SplittableRandom random = new SplittableRandom(3);
        int timersBefore = Waits.liveTimers();
        int rounds = StressScale.of(300);
        try (Scheduler s = Scheduler.create(8)) {
            for (int r = 0; r < rounds; r++) {
                List<Job<Void>> jobs = new ArrayList<>();
                for (int i = 0; i < 12; i++) {
                    Job<Void> tiny = Job.sleep(Duration.ofNanos(random.nextLong(1, 50_000)));
                    jobs.add(switch (random.nextInt(5)) {
                        case 0 -> permits.withPermit(tiny);
                        case 1 -> mutex.withLock(tiny);
                        case 2 -> pool.withItem(x -> tiny);
                        case 3 -> event.await(Duration.ofNanos(random.nextLong(0, 2_000_000))).then(Job.unit());
                        default -> Job.run(event::signal);
                    });
                }
                long seed = random.nextLong();
                s.run(Job.all(jobs.stream().map(Job::start).toList()).flatMap(fibers -> {
                    SplittableRandom rr = new SplittableRandom(seed);
                    Job<Void> chain = Job.unit();
                    for (Fiber<Void> f : fibers) {
                        if (rr.nextInt(3) == 0) {
                            chain = chain.then(rr.nextBoolean() ? Job.yieldNow() : Job.unit()).then(f.cancel());
                        }
                    }
                    for (Fiber<Void> f : fibers) {
                        chain = chain.then(f.outcome().then(Job.unit()));
                    }
                    return chain;
                }));
            }
        }
        assertThat(permits.availablePermits()).isEqualTo(3);
        assertThat(mutex.isLocked()).isFalse();
        assertThat(pool.available()).isEqualTo(2);
        assertThat(permits.waiterCount() + mutex.waiterCount() + pool.waiterCount() + event.waiterCount()).isZero();
        assertThat(Waits.liveTimers() - timersBefore).as("timers left pending").isZero();
    }

    /** marl EventWaitStressTest at a larger size: 50 rounds (at full scale) of 200 timed waits racing a signal. */
    @Test
    void eventWaitStressLarge() {
        Event event = new Event(Event.Mode.MANUAL);
        int timersBefore = Waits.liveTimers();
        int rounds = StressScale.of(50);
        try (Scheduler s = Scheduler.create(8)) {
            for (int round = 0; round < rounds; round++) {
                event.clear();
                WaitGroup wg = new WaitGroup(200);
                List<Job<Fiber<Void>>> starts = new ArrayList<>();
                for (int j = 0; j < 200; j++) {
                    starts.add(event.await(Duration.ofNanos(j * 250_000L)).then(Job.run(wg::done)).start());
                }
                s.run(Job.all(starts).then(Job.sleep(Duration.ofMillis(25))).then(Job.run(event::signal))
                        .then(wg.await()));
                assertThat(event.waiterCount()).isZero();
            }
        }
        assertThat(Waits.liveTimers() - timersBefore).as("timers left pending").isZero();
    }

    private static Job<Void> loop(int n, Job<?> body) {
        return n == 0 ? Job.unit() : body.then(Job.defer(() -> loop(n - 1, body)));
    }

    private static Job<Void> loopIndexed(int n, java.util.function.IntFunction<Job<Void>> body) {
        return loopFrom(0, n, body);
    }

    private static Job<Void> loopFrom(int i, int n, java.util.function.IntFunction<Job<Void>> body) {
        return i == n ? Job.unit() : body.apply(i).then(Job.defer(() -> loopFrom(i + 1, n, body)));
    }

    private interface Critical {
        void run() throws InterruptedException;
    }

    private static void lockThen(Mutex mutex, Critical body) {
        try {
            mutex.lockBlocking();
            try {
                body.run();
            } finally {
                mutex.unlock();
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

}
