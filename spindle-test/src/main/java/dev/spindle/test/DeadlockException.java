package dev.spindle.test;

import java.time.Duration;
import java.util.List;

/**
 * Thrown by a {@link Simulation} that is waiting for something (the end of a job, or every fiber on
 * {@code close()}) when nothing can ever happen again: no work is runnable and no timer is pending. The
 * message lists every blocked fiber, with its name, and what it waits on.
 *
 * <pre>{@code
 * try {
 *     sim.run(transfers);
 * } catch (DeadlockException e) {
 *     // deadlock at t=0s under schedule pct:-703776:3:10: nothing is runnable, no timer is pending, and 3 fibers wait:
 *     //   fiber-1 "main" waits on join of fiber-2 "transfer a->b"
 *     //   fiber-2 "transfer a->b" waits on join of fiber-3 "transfer b->a"
 *     //   fiber-3 "transfer b->a" waits on join of fiber-2 "transfer a->b"
 *     // cycle: fiber-2 "transfer a->b" -> fiber-3 "transfer b->a" -> fiber-2 "transfer a->b" (each joins the next)
 *     // replay: Simulation.replay("pct:-703776:3:10")
 *     assertThat(e.blocked()).extracting(BlockedFiber::name).contains("transfer a->b", "transfer b->a");
 * }
 * }</pre>
 */
public final class DeadlockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The blocked fibers, in start order. */
    private final transient List<BlockedFiber> blocked;
    /** Virtual time of the deadlock, in nanoseconds. */
    private final long nanos;
    /** Token of the schedule it happened under. */
    private final String schedule;

    DeadlockException(List<BlockedFiber> blocked, long nanos, String schedule, String cycle) {
        super(message(blocked, nanos, schedule, cycle));
        this.blocked = List.copyOf(blocked);
        this.nanos = nanos;
        this.schedule = schedule;
    }

    /** {@return every fiber that waits forever, in start order} */
    public List<BlockedFiber> blocked() {
        return blocked != null ? blocked : List.of(); // not serialized: the message keeps the list
    }

    /** {@return virtual time since the start of the simulation when it got stuck} */
    public Duration elapsed() {
        return Duration.ofNanos(nanos);
    }

    /** {@return the schedule token ({@link Schedule#parse} reads it) under which it happened} */
    public String schedule() {
        return schedule;
    }

    private static String message(List<BlockedFiber> blocked, long nanos, String schedule, String cycle) {
        StringBuilder sb = new StringBuilder()
                .append("deadlock at t=").append(VirtualTime.format(nanos))
                .append(" under schedule ").append(schedule)
                .append(": nothing is runnable, no timer is pending, and ").append(blocked.size())
                .append(blocked.size() == 1 ? " fiber waits:" : " fibers wait:");
        for (BlockedFiber f : blocked) {
            sb.append("\n  ").append(f);
        }
        if (cycle != null) {
            sb.append("\ncycle: ").append(cycle);
        }
        sb.append("\nreplay: Simulation.replay(\"").append(schedule).append("\")");
        return sb.toString();
    }
}
