package dev.spindle.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a worker shares when another worker is idle: the oldest items of its stack (the bottom), never the
 * item it is about to run nor the newest ones under it, nor an oldest item that can run only on this worker,
 * and nothing is lost or run twice; the shared item is left in the global queue for the worker woken to
 * take it; and shares from a deep stack are spaced out once wake-ups are wasted. One worker of an engine
 * without threads, driven on the test thread; the idle worker is simulated by the idle count alone.
 */
class WorkerSharingTest {
    /** An item that does nothing; only where it is queued matters. */
    private static final class Item extends TestWork {
        final int id;
        /** The worker this item can run on only (a direct body's step), or null. */
        Worker boundTo;

        Item(int id) {
            this.id = id;
        }

        @Override
        public boolean boundTo(Worker w) {
            return w == boundTo;
        }

        @Override
        public void doWork(Worker w) {
        }

        @Override
        public String toString() {
            return "item " + id;
        }
    }

    private final Engine engine = new Engine("sharing-test", 1, false, e -> {
        throw new AssertionError(e);
    });
    private final Worker w = engine.soleWorker();

    /** Pushes items 0..n-1: item 0 is the oldest (the bottom), item n-1 the top. */
    private List<Item> pushItems(int n) {
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Item item = new Item(i);
            items.add(item);
            w.push(item);
        }
        return items;
    }

    private List<Work> drainGlobal() {
        List<Work> shared = new ArrayList<>();
        for (Work g; (g = engine.pollGlobal()) != null; ) {
            shared.add(g);
        }
        return shared;
    }

    private List<Work> drainLocal() {
        List<Work> local = new ArrayList<>();
        for (Work l; (l = w.popLocal()) != null; ) {
            local.add(l);
        }
        return local;
    }

    @Test
    void withNobodyIdleNothingIsShared() {
        List<Item> items = pushItems(4);
        assertThat(w.nextWork()).isSameAs(items.get(3));
        assertThat(engine.hasGlobalWork()).isFalse();
        assertThat(drainLocal()).containsExactly(items.get(2), items.get(1), items.get(0));
    }

    @Test
    void anIdleWorkerGetsTheOldestItemAndTheNewestStay() {
        List<Item> items = pushItems(4);
        engine.addIdle(1);
        assertThat(w.nextWork()).as("the top runs here").isSameAs(items.get(3));
        assertThat(drainGlobal()).as("shared").containsExactly(items.get(0));
        assertThat(drainLocal()).as("kept, newest first").containsExactly(items.get(2), items.get(1));
    }

    @Test
    void theOnlyItemUnderTheTopIsShared() {
        List<Item> items = pushItems(2);
        engine.addIdle(1);
        assertThat(w.nextWork()).isSameAs(items.get(1));
        assertThat(drainGlobal()).containsExactly(items.get(0));
        assertThat(w.hasLocalWork()).isFalse();
        Item later = new Item(2);
        w.push(later);
        assertThat(drainLocal()).as("the emptied stack takes pushes again").containsExactly(later);
    }

    @Test
    void anOldestItemBoundToThisWorkerIsNotShared() {
        List<Item> items = pushItems(4);
        items.get(0).boundTo = w;
        engine.addIdle(1);
        assertThat(w.nextWork()).isSameAs(items.get(3));
        assertThat(engine.hasGlobalWork()).as("another worker would only hand it back").isFalse();
        assertThat(drainLocal()).containsExactly(items.get(2), items.get(1), items.get(0));
    }

    @Test
    void anOldestItemBoundToAnotherWorkerIsShared() {
        List<Item> items = pushItems(3);
        items.get(0).boundTo = new Worker(engine, 1);
        engine.addIdle(1);
        assertThat(w.nextWork()).isSameAs(items.get(2));
        assertThat(drainGlobal()).containsExactly(items.get(0));
    }

    @Test
    void belowTheWalkEverythingOlderIsSharedInStackOrder() {
        int n = Worker.SHARE_WALK + 10;
        List<Item> items = pushItems(n);
        engine.addIdle(1);
        assertThat(w.nextWork()).isSameAs(items.get(n - 1));
        List<Work> kept = drainLocal();
        List<Work> shared = drainGlobal();
        assertThat(kept).as("the top's successor and SHARE_WALK more").hasSize(Worker.SHARE_WALK + 1)
                .startsWith(items.get(n - 2));
        assertThat(shared).as("the rest, newest first, ending with the oldest").hasSize(n - 2 - Worker.SHARE_WALK)
                .startsWith(items.get(n - 3 - Worker.SHARE_WALK)).endsWith(items.get(0));
    }

    @Test
    void theSharerLeavesWhatItSharedToTheWokenWorkerForAWhile() {
        int n = Worker.SHARE_HOLD + 4 * Worker.GLOBAL_CHECK_INTERVAL;
        List<Item> items = pushItems(n);
        engine.addIdle(1);
        w.run(w.nextWork());
        engine.addIdle(-1); // the idle worker was woken for the share
        List<Work> global = drainGlobal();
        assertThat(global).as("shared").containsExactly(items.get(0));
        engine.pushGlobal(items.get(0)); // back in the queue: the woken worker has not taken it yet
        int ran = 1;
        Work wk;
        while ((wk = w.nextWork()) != items.get(0)) {
            assertThat(wk).as("the sharer's own stack runs dry first: nothing lost").isNotNull();
            w.run(wk);
            ran++;
        }
        assertThat(ran).as("items run before a look took the shared item back")
                .isGreaterThanOrEqualTo(Worker.SHARE_HOLD)
                .isLessThanOrEqualTo(Worker.SHARE_HOLD + Worker.GLOBAL_CHECK_INTERVAL);
    }

    @Test
    void aWastedWakeUpDoublesTheGapUpToItsCapAndABusyOneClearsIt() {
        assertThat(engine.shareGap()).isZero();
        engine.adaptShareGap(Engine.WASTED_WAKE_ITEMS);
        assertThat(engine.shareGap()).isEqualTo(Engine.MIN_SHARE_GAP);
        engine.adaptShareGap(0);
        assertThat(engine.shareGap()).isEqualTo(2 * Engine.MIN_SHARE_GAP);
        for (int i = 0; i < 20; i++) {
            engine.adaptShareGap(1);
        }
        assertThat(engine.shareGap()).isEqualTo(Engine.MAX_SHARE_GAP);
        engine.adaptShareGap(Engine.WASTED_WAKE_ITEMS + 1);
        assertThat(engine.shareGap()).as("a woken worker that stayed busy").isZero();
    }

    @Test
    void theGapSpacesOutSharesFromADeepStack() {
        engine.adaptShareGap(0);
        int gap = engine.shareGap();
        List<Item> items = pushItems(Worker.DEEP_SHARE + 2 * gap + 4);
        engine.addIdle(1);
        w.run(w.nextWork());
        assertThat(drainGlobal()).as("the first share").containsExactly(items.get(0));
        for (int ran = 1; ran < gap; ran++) {
            w.run(w.nextWork());
        }
        assertThat(engine.hasGlobalWork()).as("fewer items than the gap since a deep share").isFalse();
        w.run(w.nextWork());
        assertThat(drainGlobal()).as("the gap has passed").containsExactly(items.get(1));
        assertThat(drainLocal()).as("nothing lost").hasSize(items.size() - 3 - gap)
                .doesNotContain(items.get(0), items.get(1));
    }

    @Test
    void sharesFromAShallowStackAreNotSpacedOut() {
        engine.adaptShareGap(0);
        List<Item> items = pushItems(4);
        engine.addIdle(1);
        w.nextWork();
        assertThat(drainGlobal()).containsExactly(items.get(0));
        w.nextWork();
        assertThat(drainGlobal()).as("at the next pop").containsExactly(items.get(1));
    }
}
