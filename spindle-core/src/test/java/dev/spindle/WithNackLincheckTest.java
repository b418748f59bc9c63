package dev.spindle;

import static dev.spindle.LincheckSupport.run;

import java.util.concurrent.atomic.AtomicBoolean;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The nack rule of {@link Alt#withNack} under concurrent commit and cancellation, by Lincheck model
 * checking: the nack of an instantiated withNack becomes enabled exactly when its choose commits to another
 * branch or the choosing fiber is cancelled, and never when the choose commits to the withNack's own branch.
 *
 * <p>A fiber waits in {@code choose(withNack(nack -> a.take()), b.take())} ({@link ParkedFibers}). The
 * operations give to {@code a} (commits the withNack's branch), give to {@code b} (commits the other one),
 * cancel the fiber, and poll the nack. Gives are polls: true when they met the waiting take. A commit to
 * {@code b} fires the nack in the giving thread; a cancellation withdraws the fiber at once, but the nack
 * fires when the fiber runs its cancellation, which here is only after the scenario ({@link #settle}), so
 * {@link Spec} says "ready" for a commit to {@code b} only and {@link #settle} checks the cancelled case
 * together with the fiber's outcome.
 */
public class WithNackLincheckTest {
    private final Channel<Integer> a = new Channel<>("a");
    private final Channel<Integer> b = new Channel<>("b");
    private final ParkedFibers parked = new ParkedFibers();
    private Alt<Void> nack;
    private final int chooser;
    private final AtomicBoolean gaveA = new AtomicBoolean();
    private final AtomicBoolean gaveB = new AtomicBoolean();

    public WithNackLincheckTest() {
        chooser = parked.park(Alt.choose(
                Alt.<String>withNack(n -> {
                    nack = n;
                    return Job.result(a.take().wrap(v -> "a" + v));
                }),
                b.take().wrap(v -> "b" + v)), () -> a.waitingTakers() == 1 && b.waitingTakers() == 1);
    }

    @Operation
    public boolean giveA() {
        boolean gave = give(a, 1);
        gaveA.compareAndSet(false, gave);
        return gave;
    }

    @Operation
    public boolean giveB() {
        boolean gave = give(b, 2);
        gaveB.compareAndSet(false, gave);
        return gave;
    }

    private static boolean give(Channel<Integer> ch, int v) {
        return run(Alt.choose(ch.give(v).wrap(x -> true), Alt.always(false)));
    }

    /**
     * Once per scenario: a second, concurrent request returns at once (the flag is already set) while the
     * first may still be withdrawing the fiber, so only the first one's return promises the withdrawal.
     */
    @Operation(runOnce = true)
    public void cancel() {
        parked.cancel(chooser);
    }

    @Operation
    public boolean nackReady() {
        return run(Alt.choose(nack.wrap(x -> true), Alt.always(false)));
    }

    /**
     * After the scenario: lets the fiber run (cancelling it if nothing decided its choose), then checks the
     * nack against how the choose was decided, and the fiber's outcome.
     */
    @Validate
    public void settle() {
        boolean toA = gaveA.get();
        boolean toB = gaveB.get();
        if (!toA && !toB) {
            cancel();
        }
        parked.close();
        boolean nackExpected = !toA; // committed to b, or cancelled
        if (nackReady() != nackExpected) {
            throw new AssertionError("nack " + (nackExpected ? "not ready" : "ready") + " after the choose went to "
                    + (toA ? "the withNack's branch" : toB ? "the other branch" : "no branch (cancelled)"));
        }
        Outcome<?> expected = toA ? new Outcome.Success<>("a1") : toB ? new Outcome.Success<>("b2")
                : new Outcome.Cancelled<>();
        if (!parked.outcome(chooser).equals(expected)) {
            throw new AssertionError("the chooser ended " + parked.outcome(chooser) + ", expected " + expected);
        }
    }

    /**
     * Each invocation commits and cancels picks across engines: the slowest model check, 36 s in the CI
     * lane and 641 s at full size.
     */
    @Test
    @Tag("stress") // on the method: a JUnit annotation on this public class would trip -Xlint:exports
    void modelCheck() {
        LincheckOptions.check(WithNackLincheckTest.class, Spec.class);
    }

    /** The sequential specification: which branch the choose committed to, if any; cancellation. */
    public static final class Spec {
        private boolean decided;
        private boolean toB;

        public boolean giveA() {
            return decide(false);
        }

        public boolean giveB() {
            return decide(true);
        }

        private boolean decide(boolean b) {
            if (decided) {
                return false;
            }
            decided = true;
            toB = b;
            return true;
        }

        public void cancel() {
            decided = true;
        }

        public boolean nackReady() {
            return toB;
        }
    }
}
