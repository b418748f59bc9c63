package dev.spindle.bench.soak;

import dev.spindle.Job;
import dev.spindle.sync.Mutex;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link Mutex} with a count of the critical sections inside it, which must never exceed one. Shared by
 * every episode (a few of them), so fibers of unrelated trees contend.
 */
final class GuardedMutex {
    final Mutex mutex;
    private final AtomicInteger holders = new AtomicInteger(); // sections inside now; any thread
    private final LongAdder sections = new LongAdder(); // sections entered, for the progress line
    private final Violations violations;

    GuardedMutex(String name, Violations violations) {
        this.mutex = new Mutex(name);
        this.violations = violations;
    }

    /**
     * A critical section as a job: under {@link Mutex#withLock}, it enters, sleeps {@code hold} (zero: yields),
     * and leaves in a finalizer. A section cancelled before it entered leaves nothing to undo.
     */
    Job<Void> section(Duration hold) {
        return mutex.withLock(Job.defer(() -> {
            Section s = new Section();
            Job<Void> inside = hold.isZero() ? Job.yieldNow() : Job.sleep(hold);
            return Job.run(s::enter).then(inside).ensure(Job.run(s::leave));
        }));
    }

    /**
     * The same critical section as a direct body: {@link Mutex#lockBlocking()} (which suspends only the
     * fiber), then {@code try}/{@code finally} around the stay.
     */
    Job<Void> directSection(Duration hold) {
        return Job.direct(() -> {
            mutex.lockBlocking();
            Section s = new Section();
            try {
                s.enter();
                if (hold.isZero()) {
                    Job.yieldNow().await();
                } else {
                    Job.sleep(hold).await();
                }
            } finally {
                s.leave();
                mutex.unlock();
            }
            return null;
        });
    }

    /** Sections inside the mutex now (zero at rest). */
    int holders() {
        return holders.get();
    }

    /** Sections entered so far. */
    long sections() {
        return sections.sum();
    }

    @Override
    public String toString() {
        return mutex.toString();
    }

    /** One stay in the critical section; {@link #leave} undoes {@link #enter} only if it ran. */
    final class Section {
        private boolean entered; // written and read by the section's fiber only

        /** Marks the section entered; a second holder is a violation. */
        void enter() {
            entered = true;
            sections.increment();
            int inside = holders.incrementAndGet();
            if (inside != 1) {
                violations.add(mutex + " held by " + inside + " sections at once");
            }
        }

        /** Marks the section left, if it was entered. */
        void leave() {
            if (entered) {
                entered = false;
                holders.decrementAndGet();
            }
        }
    }
}
