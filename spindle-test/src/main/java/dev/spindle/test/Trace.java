package dev.spindle.test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * What a simulation did, one line per event: which fiber ran at each scheduling step, which fibers it
 * started, what each one waited on, when the virtual clock moved, and the test's own
 * {@linkplain Simulation#note notes}. Runs of one schedule give byte-identical traces.
 *
 * <pre>{@code
 * Simulation sim = Simulation.withSeed(7);
 * sim.run(Job.sleep(Duration.ofSeconds(1)).named("sleeper"));
 * System.out.println(sim.trace());
 * //       t=0s          test starts fiber-1 "sleeper"
 * //       t=0s      #1  fiber-1 "sleeper" runs
 * //       t=0s          fiber-1 "sleeper" waits on timer due in 1000 ms
 * //       t=1s          time advances to 1s
 * //       t=1s      #2  fiber-1 "sleeper" runs
 * //       t=1s          fiber-1 "sleeper" finishes
 * //       t=1s      #3  (internal: wakes the test thread: its job ended)
 * }</pre>
 *
 * <p>A trace keeps its most recent {@linkplain Simulation.Builder#traceLimit events} (100,000 by default);
 * older ones are dropped and counted. Fibers are labelled when lines are rendered, so a name given with
 * {@code job.named(..)} shows from the fiber's first line on.
 */
public final class Trace {
    /** The most recent events, oldest first. */
    private final ArrayDeque<TraceEvent> events = new ArrayDeque<>();
    /** Maximum events kept (0: none). */
    private final int limit;
    /** Events dropped from the front. */
    private long dropped;

    Trace(int limit) {
        this.limit = limit;
    }

    void add(TraceEvent e) {
        if (limit == 0) {
            dropped++;
            return;
        }
        if (events.size() == limit) {
            events.removeFirst();
            dropped++;
        }
        events.addLast(e);
    }

    /** {@return the kept events as rendered lines, oldest first} */
    public List<String> lines() {
        List<String> out = new ArrayList<>(events.size());
        for (TraceEvent e : events) {
            out.add(e.render());
        }
        return out;
    }

    /** {@return number of events kept} */
    public int size() {
        return events.size();
    }

    /** {@return number of events recorded but no longer kept (beyond the limit)} */
    public long dropped() {
        return dropped;
    }

    /**
     * The last {@code n} lines (all when fewer), preceded by a line counting those left out.
     *
     * @param n how many lines, not negative
     * @return the lines, one per line of text
     */
    public String tail(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("line count must not be negative, was " + n);
        }
        List<String> all = lines();
        int from = Math.max(0, all.size() - n);
        StringBuilder sb = new StringBuilder();
        long omitted = dropped + from;
        if (omitted > 0) {
            sb.append("  ... ").append(omitted).append(" earlier events not shown\n");
        }
        for (int i = from; i < all.size(); i++) {
            sb.append(all.get(i)).append('\n');
        }
        return sb.toString();
    }

    /** Every kept line, newline-terminated. */
    @Override
    public String toString() {
        return tail(events.size());
    }
}
