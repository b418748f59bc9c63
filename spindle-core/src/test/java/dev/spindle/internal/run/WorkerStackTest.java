package dev.spindle.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The worker's local stack against a model (an {@link ArrayDeque} used as a stack): items that push random
 * numbers of further items run in exactly LIFO order, across the periodic replacement of the stack's
 * holder every {@link Worker#GLOBAL_CHECK_INTERVAL} items, and {@link Worker#popIfTop} takes back exactly the
 * top item. One worker of an engine without threads, run on the test thread.
 */
class WorkerStackTest {
    private static final int ITEMS = 20_000;

    /** An item that records that it ran and pushes the children the seeded generator asks for. */
    private static final class Item extends TestWork {
        final int id;
        final Script script;

        Item(int id, Script script) {
            this.id = id;
            this.script = script;
        }

        @Override
        public void doWork(Worker w) {
            script.ran(w, this);
        }

        @Override
        public String toString() {
            return "item " + id;
        }
    }

    /** What the items do, and the model of the stack they should see. */
    private static final class Script {
        final SplittableRandom random;
        final List<Integer> order = new ArrayList<>();
        final ArrayDeque<Integer> model = new ArrayDeque<>();
        int created;

        Script(long seed) {
            random = new SplittableRandom(seed);
        }

        void push(Worker w) {
            Item child = new Item(created++, this);
            w.push(child);
            model.push(child.id);
        }

        void ran(Worker w, Item item) {
            order.add(item.id);
            assertThat(model.pop()).as("item that should run now").isEqualTo(item.id);
            int children = created >= ITEMS ? 0 : 1 + random.nextInt(3);
            for (int i = 0; i < children; i++) {
                push(w);
            }
            if (children > 0 && random.nextInt(8) == 0) {
                // take the newest back and run it here, as a direct body's start().await() does
                Item top = new Item(created++, this);
                w.push(top);
                assertThat(w.popIfTop(top)).isTrue();
                order.add(top.id);
                assertThat(w.popIfTop(top)).as("no longer on the stack").isFalse();
            }
        }
    }

    @Timeout(60)
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 0x5eedL})
    void itemsRunInLifoOrderAcrossStackReplacements(long seed) {
        Engine engine = new Engine("stack-test", 1, false, e -> {
            throw new AssertionError("seed " + seed, e);
        });
        Worker w = engine.soleWorker();
        Script script = new Script(seed);
        for (int i = 0; i < 3; i++) {
            script.push(w);
        }
        // an item lost by the stack would leave the model non-empty: stop when the stack runs dry instead
        w.runUntil(() -> !w.hasLocalWork());

        assertThat(script.model).as("seed %d: items pushed but never run", seed).isEmpty();

        assertThat(script.created).as("seed %d: enough items to cross many replacements", seed)
                .isGreaterThan(10 * Worker.GLOBAL_CHECK_INTERVAL);
        assertThat(script.order).as("seed %d: every item ran once", seed).hasSize(script.created)
                .doesNotHaveDuplicates();
        assertThat(w.hasLocalWork()).isFalse();
    }
}
