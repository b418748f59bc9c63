package dev.spindle.examples;

import static dev.spindle.examples.Combinators.slow;

import dev.spindle.Alt;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.examples.Simulated.RacyCounter;
import dev.spindle.sync.Event;
import dev.spindle.sync.Mutex;
import dev.spindle.sync.Pool;
import dev.spindle.sync.Semaphore;
import dev.spindle.sync.WaitGroup;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The coordination primitives of {@code dev.spindle.sync}, after marl's: a {@link WaitGroup} counts
 * unfinished tasks, a {@link Mutex} and a {@link Semaphore} bound who runs at once, an {@link Event} is a
 * flag to wait for, and a {@link Pool} lends reusable items. Each waiting operation has a job form for
 * fibers ({@code await()}, {@code lock()}, ...), which frees the worker while it waits, and a blocking form
 * for ordinary threads ({@code awaitBlocking()}, ...); fibers and threads may share one primitive.
 */
public final class Coordination {
    private Coordination() {
    }

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    /** Counts the words of each document in a fiber of its own; a wait group tells when all are counted. */
    static Job<SortedMap<String, Integer>> wordCounts(List<String> documents) {
        Map<String, Integer> counts = new ConcurrentHashMap<>();
        WaitGroup pending = new WaitGroup(documents.size(), "word counts");
        Job<?> fanOut = Job.unit();
        for (String document : documents) {
            Job<Void> count = Job.sleep(ms(10))  // stands for reading the document
                    .then(Job.run(() -> counts.put(document, document.split(" ").length)))
                    .ensure(Job.run(pending::done));  // counted down however the task ends
            fanOut = fanOut.then(count.start());
        }
        return fanOut.then(pending.await())  // waits for the count to reach zero, holding no worker
                .map(allDone -> new TreeMap<>(counts));
    }

    /**
     * {@code fibers} increments of a counter that reads, yields, then writes back ({@link RacyCounter}),
     * each holding the mutex: none is lost, so this gives {@code fibers}.
     */
    static Job<Integer> guardedIncrements(int fibers) {
        RacyCounter counter = new RacyCounter();  // loses updates when increments interleave
        Mutex mutex = new Mutex("counter");
        Job<Void> increment = mutex.withLock(counter.increment());  // unlocks however the body ends
        return Job.all(Collections.nCopies(fibers, increment)).map(done -> counter.value());
    }

    /**
     * Takes {@code mutex} unless {@code shutdown} is signalled first or 50 ms pass: "locked" (the caller then
     * holds the mutex), "stopping" or "busy". The waits that lose take nothing: no lock, no signal.
     */
    static Job<String> lockUnlessStopping(Mutex mutex, Event shutdown) {
        Job<String> step = Alt.choose(
                mutex.lock().wrap(v -> "locked"),          // holds the mutex only if this one won
                shutdown.await().wrap(v -> "stopping"),
                Alt.after(Duration.ofMillis(50)).wrap(v -> "busy"));
        return step;
    }

    /**
     * {@code downloads} downloads of 10 ms each, at most {@code connections} at a time; gives the most that
     * were ever in progress at once.
     */
    static Job<Integer> limitedDownloads(int downloads, int connections) {
        Semaphore permits = new Semaphore(connections, "connections");
        AtomicInteger inProgress = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        Job<Void> download = permits.withPermit(  // waits for a permit, gives it back however the body ends
                Job.run(() -> mostAtOnce.accumulateAndGet(inProgress.incrementAndGet(), Math::max))
                        .then(Job.sleep(ms(10)))
                        .then(Job.run(inProgress::decrementAndGet)));
        return Job.all(Collections.nCopies(downloads, download)).map(done -> mostAtOnce.get());
    }

    /**
     * Two readers wait for a configuration that a loader publishes after 10 ms by signalling a manual event;
     * the event stays signalled, so a reader that comes after the signal passes at once. Every reader sees the
     * loaded version: {@code [loaded v2, reader saw v2, reader saw v2, late reader saw v2]}.
     */
    static Job<List<String>> waitForConfig() {
        Event loaded = new Event(Event.Mode.MANUAL, false, "config loaded");
        AtomicReference<String> config = new AtomicReference<>();
        Job<String> reader = loaded.await().then(Job.of(() -> "reader saw " + config.get()));
        Job<String> loader = slow("v2", ms(10)).map(version -> {
            config.set(version);
            loaded.signal();  // releases every waiter, and stays signalled
            return "loaded " + version;
        });
        Job<String> lateReader = Job.sleep(ms(20)).then(reader).map(seen -> "late " + seen);
        return Job.all(List.of(loader, reader, reader, lateReader));
    }

    /**
     * Renders {@code pages} pages of 5 ms each into string builders borrowed from a pool that lends at most
     * two at once, makes them with {@code newBuilder} only when a loan finds none free, and clears each one
     * when it comes back. Every page is {@code <p>hello</p>}.
     */
    static Job<List<String>> renderPages(int pages, Supplier<StringBuilder> newBuilder) {
        Pool<StringBuilder> builders = Pool.builder(newBuilder)
                .bounded(2)                        // at most two lent at once; more borrowers wait
                .onReturn(b -> b.setLength(0))     // cleared before the next loan
                .name("page builders")
                .build();
        Job<String> render = builders.withItem(b ->  // borrows, and returns the builder however the job ends
                Job.sleep(ms(5)).then(Job.of(() -> b.append("<p>hello</p>").toString())));
        return Job.all(Collections.nCopies(pages, render));
    }

    /**
     * {@code tasks} fibers count down a wait group that an ordinary thread, the caller, waits on with
     * {@code awaitBlocking}; gives how many tasks had finished when it woke up: all of them.
     */
    static int threadWaitsForFibers(int tasks) throws InterruptedException {
        WaitGroup pending = new WaitGroup(tasks, "tasks");
        AtomicInteger finished = new AtomicInteger();
        Job<Void> task = Job.sleep(ms(10))
                .then(Job.run(finished::incrementAndGet))
                .ensure(Job.run(pending::done));
        try (Scheduler scheduler = Scheduler.create(2)) {
            for (int i = 0; i < tasks; i++) {
                scheduler.submit(task);
            }
            pending.awaitBlocking();  // parks this thread; the fibers run on the workers
            return finished.get();
        }
    }

    /** Prints what each example gives. */
    static void demo(PrintStream out) {
        try (Scheduler scheduler = Scheduler.create(2)) {
            out.println("wordCounts(..)              -> "
                    + scheduler.run(wordCounts(List.of("to be or not to be", "be quick", "hello"))));
            out.println("guardedIncrements(100)      -> " + scheduler.run(guardedIncrements(100)));
            out.println("limitedDownloads(10, 3)     -> at most " + scheduler.run(limitedDownloads(10, 3))
                    + " at once");
            out.println("waitForConfig()             -> " + scheduler.run(waitForConfig()));
            AtomicInteger made = new AtomicInteger();
            List<String> pages = scheduler.run(renderPages(6, () -> {
                made.incrementAndGet();
                return new StringBuilder();
            }));
            out.println("renderPages(6)              -> " + pages + ", builders made: " + made.get());
        }
        try {
            out.println("threadWaitsForFibers(100)   -> " + threadWaitsForFibers(100) + " finished");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("threadWaitsForFibers(100)   -> interrupted");
        }
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
