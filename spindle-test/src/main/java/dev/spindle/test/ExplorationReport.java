package dev.spindle.test;

/**
 * What {@link Simulation#explore} found: either every schedule passed, or the first failing schedule with
 * the failure, a readable trace of its interleaving, and the line of code that replays it.
 *
 * <pre>{@code
 * ExplorationReport report = Simulation.explore(1_000, 42, scenario);
 * if (report.failed()) {
 *     System.out.println(report);                 // schedule, failure, replay line, trace
 *     Simulation.replay(report.replayToken(), scenario);   // fails the same way, every time
 * }
 * }</pre>
 *
 * <p>A failing report prints like this:
 * <pre>
 * Simulation FAILED at schedule 24 of 1000 (base seed 42) under seed:-7382086223805147691
 * Failure: org.opentest4j.AssertionFailedError: both increments applied ==&gt; expected: &lt;2&gt; but was: &lt;1&gt;
 * Replay: Simulation.replay("seed:-7382086223805147691", scenario);
 * Trace of the failing schedule (21 events):
 *         t=0s          test starts fiber-1
 *         t=0s      #1  fiber-1 runs
 *         t=0s          fiber-1 starts fiber-2 "incA"
 *         t=0s          fiber-1 starts fiber-3 "incB"
 *         t=0s      #2  fiber-3 "incB" runs
 *   ...
 *         t=0s          fiber-3 "incB": read 0
 *         t=0s      #5  fiber-2 "incA" runs
 *         t=0s          fiber-2 "incA": read 0
 *   ...
 * </pre>
 */
public final class ExplorationReport {
    /** Trace lines a report prints. */
    private static final int TRACE_LINES = 200;

    private final boolean failed;
    private final int schedulesRun;
    private final int schedulesPlanned;
    /** Base seed of the exploration, or null for a single replay. */
    private final Long baseSeed;
    private final Schedule schedule;
    private final Throwable failure;
    private final Trace trace;

    private ExplorationReport(boolean failed, int schedulesRun, int schedulesPlanned, Long baseSeed,
                              Schedule schedule, Throwable failure, Trace trace) {
        this.failed = failed;
        this.schedulesRun = schedulesRun;
        this.schedulesPlanned = schedulesPlanned;
        this.baseSeed = baseSeed;
        this.schedule = schedule;
        this.failure = failure;
        this.trace = trace;
    }

    static ExplorationReport passed(int schedules, long baseSeed) {
        return new ExplorationReport(false, schedules, schedules, baseSeed, null, null, null);
    }

    static ExplorationReport passedReplay(Schedule schedule) {
        return new ExplorationReport(false, 1, 1, null, schedule, null, null);
    }

    static ExplorationReport failed(int run, int planned, Long baseSeed, Schedule schedule, Throwable failure,
                                    Trace trace) {
        return new ExplorationReport(true, run, planned, baseSeed, schedule, failure, trace);
    }

    /** {@return whether some schedule failed} */
    public boolean failed() {
        return failed;
    }

    /** {@return whether every schedule passed} */
    public boolean passed() {
        return !failed;
    }

    /** {@return schedules run, the failing one included} */
    public int schedulesRun() {
        return schedulesRun;
    }

    /** {@return the failing schedule, or null when all passed (for a replay that passed: the schedule replayed)} */
    public Schedule schedule() {
        return schedule;
    }

    /** {@return the failing schedule's token ({@code "pct:42:2:31"}), or null when all passed} */
    public String replayToken() {
        return failed ? schedule.toString() : null;
    }

    /** {@return the line of code that replays the failure, or null when all passed} */
    public String replayLine() {
        return failed ? "Simulation.replay(\"" + schedule + "\", scenario);" : null;
    }

    /** {@return what the failing schedule threw, or null} */
    public Throwable failure() {
        return failure;
    }

    /** {@return the trace of the failing schedule, or null when all passed} */
    public Trace trace() {
        return trace;
    }

    /** Throws an {@link AssertionError} with this report as message and the failure as cause, if failed. */
    public void throwIfFailed() {
        if (failed) {
            throw new AssertionError(toString(), failure);
        }
    }

    /** The report: a one-line verdict, or the schedule, failure, replay line and trace. */
    @Override
    public String toString() {
        String seedText = baseSeed == null ? "replay" : "base seed " + baseSeed;
        if (!failed) {
            return schedule != null
                    ? "Simulation passed under " + schedule + " (replay)"
                    : "Simulation passed " + schedulesRun + " schedules (" + seedText + ")";
        }
        StringBuilder sb = new StringBuilder()
                .append("Simulation FAILED at schedule ").append(schedulesRun).append(" of ").append(schedulesPlanned)
                .append(" (").append(seedText).append(") under ").append(schedule).append('\n')
                .append("Failure: ").append(failure).append('\n')
                .append("Replay: ").append(replayLine()).append('\n')
                .append("Trace of the failing schedule (").append(trace.size() + trace.dropped()).append(" events):\n")
                .append(trace.tail(TRACE_LINES));
        return sb.toString();
    }
}
