package dev.spindle.internal.diag;

import java.time.Duration;
import java.util.List;

/**
 * One starvation episode the watchdog saw: a worker inside one work item for at least {@code stuckFor}.
 *
 * @param scheduler the scheduler's name
 * @param worker    the name of the thread driving the worker
 * @param fiberId   the id of the fiber whose item it runs, or -1 for an item of no fiber
 * @param fiberName that fiber's name, or null
 * @param stuckFor  how long at least the worker has been inside the item
 * @param stack     the worker thread's stack when it was seen stuck, innermost frame first
 */
public record Starvation(String scheduler, String worker, long fiberId, String fiberName, Duration stuckFor,
                         List<StackTraceElement> stack) {
    /** The fiber's label, or "an item of no fiber". */
    public String fiberLabel() {
        return fiberId < 0 ? "an item of no fiber" : DumpText.label(fiberId, fiberName);
    }

    /** The stack, one frame a line, as the warning and the JFR event show it. */
    public String stackText() {
        StringBuilder sb = new StringBuilder();
        for (StackTraceElement e : stack) {
            sb.append("\tat ").append(e).append('\n');
        }
        return sb.toString();
    }

    /** The warning's text. */
    public String message() {
        return "scheduler \"" + scheduler + "\": worker " + worker + " has been running " + fiberLabel()
                + " for " + stuckFor.toMillis() + " ms without returning to the scheduler; other fibers"
                + " queued on it wait. Blocking calls belong in Job.blocking or on another executor. Its stack:\n"
                + stackText();
    }
}
