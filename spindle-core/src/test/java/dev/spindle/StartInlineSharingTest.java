package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A starter whose children end inside their start, on a scheduler whose other worker is idle the whole
 * time, keeps its work: between children it continues on its own stack only while half its item's fuel is
 * left, so no child runs out of fuel with the starter's continuation queued under it, where sharing would
 * hand it to the idle worker (a wake-up, and the starter moving between workers, per share).
 */
@Timeout(60)
class StartInlineSharingTest {
    private static final int CHILDREN = 100_000;

    @Test
    void trivialChildrenStartedInALoopLeaveNothingToShare() {
        try (Scheduler s = Scheduler.create(2)) {
            long before = s.metrics().sharedItems();
            assertThat(s.run(StackSafetyTest.startInLoop(CHILDREN, 0))).isEqualTo(CHILDREN);
            // Without the fuel rule, about one child in 200 bounced with the starter under it: ~500 shares.
            assertThat(s.metrics().sharedItems() - before).isLessThan(CHILDREN / 2_000);
        }
    }
}
