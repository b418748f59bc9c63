package dev.spindle.examples;

import static dev.spindle.examples.Combinators.slow;

import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.Scheduler;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Fibers: {@link Job#start()} runs a job as a new fiber and gives its {@link Fiber} handle at once;
 * {@link Fiber#join()} waits for its value, {@link Fiber#outcome()} for its {@link Outcome} and
 * {@link Fiber#cancel()} cancels it and waits until it has finished. Fibers started from a fiber are its
 * children: cancelling it cancels them, while a {@link Job#startDetached() detached} fiber lives on.
 */
public final class FibersAndCancellation {
    /** How long the "slow" jobs wait. */
    static final Duration PAUSE = Duration.ofMillis(50);

    private FibersAndCancellation() {
    }

    /** 20 + 22 computed by two fibers at once: it takes one pause, not two. */
    static Job<Integer> sumInParallel() {
        return slow(20, PAUSE).start().flatMap(a ->
                slow(22, PAUSE).start().flatMap(b ->
                a.join().flatMap(x -> b.join().map(y -> x + y))));
    }

    /** Starts a fiber that would sleep for an hour, lets it run a moment, cancels it and gives its outcome. */
    static Job<Outcome<String>> cancelASleeper(List<String> log) {
        Job<String> sleeper = Job.sleep(Duration.ofHours(1)).then(Job.result("woke up"))
                .onCancel(Job.run(() -> log.add("sleeper cancelled: its timer is gone")));
        return sleeper.start().flatMap(fiber ->
                Job.sleep(Duration.ofMillis(20))
                        .then(fiber.cancel())  // returns once the fiber has finished
                        .then(fiber.outcome()));
    }

    /**
     * A parent starts a child and a detached fiber, then is cancelled (here it cancels itself with
     * {@link Job#cancelled()}; {@code parent.cancel()} from another fiber works the same): the child is
     * cancelled with it, the detached fiber runs on. Gives the parent's, the child's and the detached
     * fiber's outcomes.
     */
    static Job<List<Outcome<String>>> cancelTree() {
        Job<String> endless = slow("child finished", Duration.ofHours(1));
        Job<String> brief = slow("detached finished", PAUSE);
        return Job.defer(() -> {
            List<Fiber<String>> started = new CopyOnWriteArrayList<>();
            Job<String> parent = endless.start().map(started::add)
                    .then(brief.startDetached().map(started::add))
                    .then(Job.cancelled());
            return parent.start().flatMap(Fiber::outcome).flatMap(p ->
                    started.get(0).outcome().flatMap(child ->
                    started.get(1).outcome().map(detached -> List.of(p, child, detached))));
        });
    }

    /** Prints what each job gives. */
    static void demo(PrintStream out) {
        try (Scheduler scheduler = Scheduler.create()) {
            Combinators.Timed<Integer> sum = scheduler.run(Combinators.timed(sumInParallel()));
            out.println("two fibers of " + PAUSE.toMillis() + " ms each -> " + sum.value()
                    + " in " + sum.millis() + " ms (one pause, not two)");
            List<String> log = new CopyOnWriteArrayList<>();
            out.println("cancelled sleeper           -> " + scheduler.run(cancelASleeper(log)) + ", log " + log);
            List<Outcome<String>> tree = scheduler.run(cancelTree());
            out.println("cancelled parent            -> " + tree.get(0));
            out.println("  its child                 -> " + tree.get(1));
            out.println("  its detached fiber        -> " + tree.get(2));
        }
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
