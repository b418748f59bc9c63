package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every job scheduled, from outside the scheduler or from inside its workers, runs exactly once. */
class ExactlyOnceTest {
    private static final int JOBS = 10_000;
    private static final int OUTSIDE_THREADS = 3;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void tenThousandJobsFromOutsideAndInsideEachRunOnce(SchedulerKind kind) {
        AtomicIntegerArray runs = new AtomicIntegerArray(JOBS);
        kind.use(s -> {
            // a quarter from plain threads (execute and submit), the rest from fibers on the workers
            int outside = JOBS / 4;
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < OUTSIDE_THREADS; t++) {
                int first = t;
                threads.add(new Thread(() -> {
                    for (int i = first; i < outside; i += OUTSIDE_THREADS) {
                        int slot = i;
                        if (i % 2 == 0) {
                            s.execute(() -> runs.incrementAndGet(slot));
                        } else {
                            s.submit(Job.run(() -> runs.incrementAndGet(slot)));
                        }
                    }
                }, "outside-" + t));
            }
            threads.forEach(Thread::start);
            s.run(scheduleFromInside(s, outside, JOBS, runs));
            threads.forEach(Await::join);
        });
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < JOBS && wrong.size() < 20; i++) {
            if (runs.get(i) != 1) {
                wrong.add("job " + i + " ran " + runs.get(i) + " times");
            }
        }
        assertThat(wrong).as("jobs that did not run exactly once (first 20)").isEmpty();
    }

    /** Schedules jobs {@code from..to-1} from inside a fiber, in three ways: execute, forget and start. */
    private static Job<Void> scheduleFromInside(Scheduler s, int from, int to, AtomicIntegerArray runs) {
        Job<Void> job = Job.unit();
        int chunk = 100;
        for (int start = from; start < to; start += chunk) {
            int lo = start;
            int hi = Math.min(to, start + chunk);
            job = job.then(Job.defer(() -> {
                Job<Void> batch = Job.unit();
                for (int i = lo; i < hi; i++) {
                    int slot = i;
                    batch = switch (i % 3) {
                        case 0 -> batch.then(Job.run(() -> s.execute(() -> runs.incrementAndGet(slot))));
                        case 1 -> batch.then(Job.run(() -> runs.incrementAndGet(slot)).forget());
                        default -> batch.then(Job.yieldNow().then(Job.run(() -> runs.incrementAndGet(slot))).start())
                                .then(Job.unit());
                    };
                }
                return batch;
            })).then(Job.yieldNow());
        }
        return job;
    }
}
