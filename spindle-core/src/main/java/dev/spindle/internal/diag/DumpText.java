package dev.spindle.internal.diag;

import dev.spindle.FiberDump;
import dev.spindle.FiberSnapshot;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one renderer of fibers for people and tools: the labels and lines of fiber dumps (text and JSON),
 * of {@code Fiber.toString()}, of the watchdog's warnings and of the simulator's deadlock reports.
 */
public final class DumpText {
    private DumpText() {
    }

    /**
     * A fiber's number in dumps and reports: its identity hash, which costs nothing until first asked (the
     * fiber object has no room for an id field). Distinct among live fibers but for rare collisions.
     */
    public static long idOf(Object fiber) {
        return System.identityHashCode(fiber) & 0x7fffffffL;
    }

    /** {@code fiber-12 "reader"}, or {@code fiber-12} when unnamed. */
    public static String label(long id, String name) {
        return name != null ? "fiber-" + id + " \"" + name + "\"" : "fiber-" + id;
    }

    /** {@code fiber-12 "reader" waits on IVar "b" (empty)}: a blocked fiber in dumps and deadlock reports. */
    public static String waitLine(String label, String waitsOn) {
        return label + " waits on " + waitsOn;
    }

    /** One fiber's line of a dump, without indentation. */
    public static String line(FiberSnapshot f) {
        String label = label(f.id(), f.name());
        String line = switch (f.state()) {
            case RUNNING -> label + " runs on " + f.worker();
            case RUNNABLE -> label + " is runnable";
            case BLOCKED, SLEEPING -> waitLine(label, f.blockedOn());
            case FINISHING -> label + " has finished, its children have not";
        };
        return f.cancelRequested() && f.state() != FiberSnapshot.State.FINISHING ? line + " (cancelling)" : line;
    }

    /** The dump as an indented tree (see {@link FiberDump}). */
    public static String text(FiberDump d) {
        int n = d.fibers().size();
        StringBuilder sb = new StringBuilder()
                .append("fiber dump of scheduler \"").append(d.scheduler()).append("\" at ").append(d.time())
                .append(": ").append(n).append(n == 1 ? " fiber, " : " fibers, ")
                .append(d.workers()).append(d.workers() == 1 ? " worker" : " workers");
        Map<Long, Integer> depth = new HashMap<>();
        for (FiberSnapshot f : d.fibers()) {
            Integer parentDepth = depth.get(f.parent());
            int level = parentDepth == null ? 0 : parentDepth + 1;
            depth.put(f.id(), level);
            sb.append('\n').append("  ".repeat(level)).append(line(f));
        }
        return sb.toString();
    }

    /** The dump as JSON (see {@link FiberDump} and docs/diagnostics.md). */
    public static String json(FiberDump d) {
        StringBuilder sb = new StringBuilder(64 + 160 * d.fibers().size());
        sb.append("{\"scheduler\":");
        string(sb, d.scheduler());
        sb.append(",\"time\":");
        string(sb, d.time().toString());
        sb.append(",\"workers\":").append(d.workers()).append(",\"fibers\":[");
        String sep = "";
        for (FiberSnapshot f : d.fibers()) {
            sb.append(sep).append("\n{\"id\":").append(f.id()).append(",\"name\":");
            string(sb, f.name());
            sb.append(",\"state\":\"").append(f.state()).append("\",\"blockedOn\":");
            string(sb, f.blockedOn());
            sb.append(",\"worker\":");
            string(sb, f.worker());
            sb.append(",\"parent\":").append(f.parent() < 0 ? "null" : Long.toString(f.parent()));
            sb.append(",\"children\":");
            longs(sb, f.children());
            sb.append(",\"cancelRequested\":").append(f.cancelRequested()).append('}');
            sep = ",";
        }
        return sb.append("]}").toString();
    }

    private static void longs(StringBuilder sb, List<Long> values) {
        sb.append('[');
        for (int i = 0; i < values.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(values.get(i));
        }
        sb.append(']');
    }

    /** Appends {@code s} as a JSON string (RFC 8259 escapes), or null. */
    static void string(StringBuilder sb, String s) {
        if (s == null) {
            sb.append("null");
            return;
        }
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
