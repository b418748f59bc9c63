package dev.spindle.test;

/**
 * One line of a {@link Trace}. Fibers are kept as {@link FiberInfo}s and labelled when the line is
 * rendered, so a name given after a fiber started shows on its earlier lines too.
 */
final class TraceEvent {
    /** What happened. */
    enum Kind {
        /** A fiber's work item ran (one scheduling decision). */
        RUN,
        /** A work item that belongs to no fiber ran (a completion callback, a fired failure). */
        RUN_INTERNAL,
        /** A fiber started another ({@code fiber} is the starter, null from outside). */
        START,
        /** A fiber began to wait ({@code other} when it joins a fiber, else {@code text}). */
        BLOCK,
        /** A fiber finished. */
        FINISH,
        /** The virtual clock moved. */
        TIME,
        /** A note from the test ({@code Simulation.note}). */
        NOTE,
        /** A failure nobody observed reached the uncaught handler. */
        UNCAUGHT
    }

    final Kind kind;
    /** Virtual time in nanoseconds. */
    final long time;
    /** Scheduling step (RUN, RUN_INTERNAL), else 0. */
    final long step;
    final FiberInfo fiber;
    final FiberInfo other;
    /** Free text; for BLOCK the blocker's description, filled in when the step ends (see SimScheduler). */
    String text;

    TraceEvent(Kind kind, long time, long step, FiberInfo fiber, FiberInfo other, String text) {
        this.kind = kind;
        this.time = time;
        this.step = step;
        this.fiber = fiber;
        this.other = other;
        this.text = text;
    }

    /** The rendered line: time, step (for runs) and what happened. */
    String render() {
        String stepText = step > 0 ? "#" + step : "";
        return String.format("%12s %7s  %s", "t=" + VirtualTime.format(time), stepText, what());
    }

    private String what() {
        return switch (kind) {
            case RUN -> fiber.label() + " runs";
            case RUN_INTERNAL -> "(internal: " + text + ")";
            case START -> (fiber == null ? "test" : fiber.label()) + " starts " + other.label();
            case BLOCK -> fiber.label() + " waits on " + (other != null ? "join of " + other.label() : text);
            case FINISH -> fiber.label() + " finishes";
            case TIME -> "time advances to " + VirtualTime.format(time);
            case NOTE -> (fiber == null ? "test" : fiber.label()) + ": " + text;
            case UNCAUGHT -> "uncaught failure: " + text;
        };
    }
}
