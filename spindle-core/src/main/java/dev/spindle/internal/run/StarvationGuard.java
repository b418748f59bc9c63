package dev.spindle.internal.run;

/**
 * At a worker's periodic look ({@link Worker#GLOBAL_CHECK_INTERVAL}), lets the item under the top of its
 * stack run when the same item has lain there for {@link #STARVING_LOOKS} looks in a row. Two fibers that
 * wake each other are always the newest item, so an item beneath them would never run; this runs it within
 * {@code STARVING_LOOKS + 1} intervals, and the next one beneath after as many again. Elsewhere the item
 * under the top changes within an interval (fork/join trees), or changes order only rarely. One per worker,
 * used by its owner only (plain fields).
 */
final class StarvationGuard {
    /**
     * Looks at which the same item lay under the top before it runs. Fan-in keeps its consumer and one
     * producer on top for thousands of items, and a producer run early waits at once: big enough that fan-in
     * never pays that switch, small enough to bound the wait beneath (see the benchmark notebook).
     */
    static final int STARVING_LOOKS = 4;

    /** The item under the top at the last look. */
    private Work beneath;
    /** Looks in a row at which {@link #beneath} was under the top, less one. */
    private int beneathLooks;

    /**
     * The item to run instead of {@code top}, the top of {@code s}: the item under it when that has been
     * under the top for {@link #STARVING_LOOKS} looks in a row (swapped with the top in {@code s}), else
     * {@code top}.
     */
    Work next(LocalStack s, Work top) {
        Work second = top.next;
        if (second == null || second != beneath) {
            beneath = second;
            beneathLooks = 0;
            return top;
        }
        if (++beneathLooks < STARVING_LOOKS) {
            return top;
        }
        beneath = null;
        top.next = second.next;
        second.next = top;
        s.top = second;
        if (s.bottom == second) {
            s.bottom = top;
        }
        return second;
    }
}
