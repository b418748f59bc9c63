package dev.spindle.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The order in which work handed to a worker's inbox runs: what the worker takes at once runs newest first
 * while it is short, as the local stack's items do, and oldest first when it is a backlog of more than
 * {@link Worker#INBOX_BACKLOG} items (resumptions forwarded while the worker was busy, such as wake-ups due
 * during a collector's pause), whose oldest entries must not run last. One worker of an engine without
 * threads, run on the test thread, so the order is exact.
 */
class InboxOrderTest {
    /** An item that records its number and may hand more items to the inbox when it runs. */
    private static final class Numbered extends TestWork {
        final int number;
        final List<Integer> ran;
        final List<Numbered> handsOver;

        Numbered(int number, List<Integer> ran, List<Numbered> handsOver) {
            this.number = number;
            this.ran = ran;
            this.handsOver = handsOver;
        }

        @Override
        public void doWork(Worker w) {
            ran.add(number);
            handsOver.forEach(w::pushInbox);
        }
    }

    private static Worker soleWorker() {
        return new Engine("inbox-test", 1, false, e -> {
            throw new AssertionError(e);
        }).soleWorker();
    }

    @Timeout(30)
    @Test
    void aBacklogRunsOldestFirst() {
        Worker w = soleWorker();
        List<Integer> ran = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            w.pushInbox(new Numbered(i, ran, List.of()));
        }

        w.runUntil(() -> !w.hasLocalWork());

        assertThat(ran).containsExactlyElementsOf(IntStream.range(0, 1_000).boxed().toList());
    }

    @Timeout(30)
    @Test
    void aChainOfAtMostTheBacklogLengthRunsNewestFirst() {
        Worker w = soleWorker();
        List<Integer> ran = new ArrayList<>();
        for (int i = 0; i < Worker.INBOX_BACKLOG; i++) {
            w.pushInbox(new Numbered(i, ran, List.of()));
        }

        w.runUntil(() -> !w.hasLocalWork());

        assertThat(ran).containsExactlyElementsOf(
                IntStream.range(0, Worker.INBOX_BACKLOG).map(i -> Worker.INBOX_BACKLOG - 1 - i).boxed().toList());
    }

    @Timeout(30)
    @Test
    void itemsHandedOverWhileABacklogRunsComeAfterIt() {
        Worker w = soleWorker();
        List<Integer> ran = new ArrayList<>();
        List<Numbered> later = List.of(new Numbered(100, ran, List.of()), new Numbered(101, ran, List.of()));
        int backlog = Worker.INBOX_BACKLOG + 1;
        w.pushInbox(new Numbered(0, ran, later));
        for (int i = 1; i < backlog; i++) {
            w.pushInbox(new Numbered(i, ran, List.of()));
        }

        w.runUntil(() -> !w.hasLocalWork());

        List<Integer> expected = new ArrayList<>(IntStream.range(0, backlog).boxed().toList());
        expected.addAll(List.of(101, 100)); // a chain of two: newest first
        assertThat(ran).containsExactlyElementsOf(expected);
    }
}
