package dev.spindle.internal.diag;

import dev.spindle.FiberDump;
import dev.spindle.FiberSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds fibers blocked longer than a threshold by comparing successive dumps (no timestamp is taken when a
 * fiber blocks): a fiber seen BLOCKED on the same thing in dumps {@code threshold} apart has waited at
 * least that long, and is reported once for that wait. For the {@code dev.spindle.FiberBlocked} event,
 * which is off by default since each look takes a dump. Called by one thread at a time (JFR's periodic
 * task).
 */
final class BlockedTracker {
    /** One fiber's wait, first seen at {@code since}. */
    private record Wait(String on, long since, boolean reported) {
    }

    /** A wait to report: the fiber and how long at least it has waited. */
    record Report(FiberSnapshot fiber, long blockedNanos) {
    }

    private final long thresholdNanos;
    private Map<Long, Wait> waits = new HashMap<>();

    BlockedTracker(long thresholdNanos) {
        this.thresholdNanos = thresholdNanos;
    }

    /** The waits of {@code dump}, taken at {@code now}, that have just passed the threshold. */
    synchronized List<Report> update(FiberDump dump, long now) {
        Map<Long, Wait> next = new HashMap<>();
        List<Report> out = new ArrayList<>();
        for (FiberSnapshot f : dump.fibers()) {
            if (f.state() != FiberSnapshot.State.BLOCKED) {
                continue;
            }
            Wait w = waits.get(f.id());
            if (w == null || !w.on().equals(f.blockedOn())) {
                w = new Wait(f.blockedOn(), now, false);
            } else if (!w.reported() && now - w.since() >= thresholdNanos) {
                out.add(new Report(f, now - w.since()));
                w = new Wait(w.on(), w.since(), true);
            }
            next.put(f.id(), w);
        }
        waits = next;
        return out;
    }
}
