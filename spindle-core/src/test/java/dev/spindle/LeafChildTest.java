package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Worker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A child whose job is a {@link Pure.Leaf} (a constant, a failure, a call) is linked without the fence and
 * asked to cancel, if its parent is being cancelled, after it has run ({@code FiberImpl.addLeafChild} and
 * {@code checkLeafChild}, as {@code FiberJobs.Start} uses them). Driven by hand on one thread: a parent
 * cancelled while masked, then unmasked without the walk that Cleanup would make, has its request bit set
 * while its children were never visited, which is the state a canceller leaves when its walk missed a link
 * still in flight. The last tests start leaves through the API.
 */
class LeafChildTest {
    private final Engine engine = new Engine("leaf-child", 1, false, e -> {
        throw new AssertionError("uncaught", e);
    });
    private final Worker worker = engine.soleWorker();
    private final FiberImpl<Void> parent = new FiberImpl<>(new Running<>(), engine, null, false);
    private Scheduler scheduler;

    LeafChildTest() {
        parent.doWork(worker);
    }

    @AfterEach
    void close() {
        if (scheduler != null) {
            scheduler.close();
        }
    }

    /** The job of a fiber whose code runs (or is suspended): it never completes by itself. */
    private static final class Running<A> extends Job<A> {
        @Override
        void doJob(Worker w, Cont<A> k) {
        }
    }

    /**
     * Starts {@code job} as a child of the parent the way Start does for a leaf, and runs it with a full step
     * budget, as inside an item of the worker's loop (the budget a bounce renews; the item it queues is
     * taken back).
     */
    private <A> FiberImpl<A> startLeaf(Job<A> job) {
        FiberImpl<A> c = new FiberImpl<>(job, engine, parent, false);
        parent.addLeafChild(c);
        FiberImpl<Void> refill = new FiberImpl<>(new Running<>(), engine, null, false);
        worker.bounce(refill);
        assertThat(worker.popIfTop(refill)).isTrue();
        c.doWork(worker);
        parent.checkLeafChild(worker, c);
        return c;
    }

    /** Sets the parent's request bit the way a canceller does whose walk did not see the newest child. */
    private void cancelParentWithoutWalk() {
        parent.mask();
        parent.requestCancel(worker); // masked: sets the bit, walks nothing
        assertThat(parent.unmask()).isTrue(); // Cleanup would walk the children now; this test does not
    }

    @Test
    void aLeafOfACancelledParentIsAskedToCancelOnceItHasRunAndKeepsItsValue() {
        cancelParentWithoutWalk();
        FiberImpl<Integer> c = startLeaf(Job.result(7));

        assertThat(c.isDone()).isTrue();
        assertThat(c.outcomeNow()).isEqualTo(Outcome.success(7));
        assertThat(c.isCancelRequested()).isTrue();
    }

    @Test
    void aLeafOfAParentNotCancelledIsNotAsked() {
        FiberImpl<Integer> c = startLeaf(Job.of(() -> 8));

        assertThat(c.outcomeNow()).isEqualTo(Outcome.success(8));
        assertThat(c.isCancelRequested()).isFalse();
    }

    @Test
    void aFailingLeafKeepsItsFailure() {
        IllegalStateException boom = new IllegalStateException("boom");
        cancelParentWithoutWalk();
        FiberImpl<Object> c = startLeaf(Job.failure(boom));

        assertThat(c.outcomeNow()).isEqualTo(Outcome.failure(boom));
        assertThat(c.isCancelRequested()).isTrue();
    }

    @Test
    void aChildStillRunningAfterItsFirstRunIsAskedToo() {
        cancelParentWithoutWalk();
        FiberImpl<Void> c = startLeaf(new Running<>()); // as a leaf whose run bounced before its end

        assertThat(c.isDone()).isFalse();
        assertThat(c.isCancelRequested()).isTrue();
    }

    @Test
    void aMaskedParentLeavesItsRequestToTheEndOfItsRegion() {
        parent.mask();
        parent.requestCancel(worker);
        FiberImpl<Integer> c = startLeaf(Job.result(9));

        assertThat(c.outcomeNow()).isEqualTo(Outcome.success(9));
        assertThat(c.isCancelRequested()).isFalse(); // retired before the region ends: nothing to cancel
    }

    @Test
    void leavesStartedThroughTheApiGiveTheirOutcomes() {
        scheduler = Scheduler.create(1);
        IllegalStateException boom = new IllegalStateException("boom");
        Job<Integer> sum = Job.result(1).start().flatMap(a -> Job.of(() -> 2).start().flatMap(b ->
                a.join().flatMap(x -> b.join().map(y -> x + y))));

        assertThat(scheduler.run(sum)).isEqualTo(3);
        assertThatThrownBy(() -> scheduler.run(Job.<Integer>failure(boom).start().flatMap(Fiber::join)))
                .isSameAs(boom);
    }
}
