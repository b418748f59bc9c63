package dev.spindle;

import static dev.spindle.LincheckSupport.run;

import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link Promise} and {@link Job#memo} against a memoised value, by Lincheck model
 * checking: concurrent reads start the job at most once and all see its outcome, a value for one promise
 * and a failure for a memoised failing job; {@code isDone} turns true when the job has finished. The job's
 * value is the number of times it has run, so a second run would show. A read runs until it has the
 * outcome: the first read runs the job on its own engine (reads that find it started wait for that one),
 * so no read waits for anything but another read in progress. {@link #ranOnce} checks after every scenario
 * that neither job ran more than once.
 */
public class PromiseLincheckTest {
    private final AtomicInteger runs = new AtomicInteger();
    private final Promise<Integer> counted = Promise.of(Job.of(runs::incrementAndGet));
    private final AtomicInteger failingRuns = new AtomicInteger();
    private final Promise<Integer> failing = Job.<Integer>defer(() -> {
        failingRuns.incrementAndGet();
        return Job.failure(new IllegalStateException("boom"));
    }).memo();

    @Operation
    public int read() {
        return run(counted.read());
    }

    @Operation
    public boolean isDone() {
        return counted.isDone();
    }

    /** The failure's message, as every reader of the failing promise sees it. */
    @Operation
    public String readFailing() {
        return run(failing.read().attempt()) instanceof Outcome.Failure<?> f ? f.error().getMessage() : "no failure";
    }

    @Operation
    public boolean isDoneFailing() {
        return failing.isDone();
    }

    @Validate
    public void ranOnce() {
        if (runs.get() > 1 || failingRuns.get() > 1) {
            throw new AssertionError("a promise's job ran more than once: " + runs + ", " + failingRuns);
        }
    }

    @Test
    @Tag("stress") // on the method: a JUnit annotation on this public class would trip -Xlint:exports
    void modelCheck() {
        LincheckOptions.check(PromiseLincheckTest.class, Spec.class);
    }

    /** The sequential specification: whether each job has run; a read runs it (once). */
    public static final class Spec {
        private boolean done;
        private boolean failingDone;

        public int read() {
            done = true;
            return 1;
        }

        public boolean isDone() {
            return done;
        }

        public String readFailing() {
            failingDone = true;
            return "boom";
        }

        public boolean isDoneFailing() {
            return failingDone;
        }
    }
}
