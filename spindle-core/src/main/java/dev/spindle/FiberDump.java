package dev.spindle;

import dev.spindle.internal.diag.DumpText;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Every live fiber of a scheduler at one moment, as a tree: {@link Scheduler#dump()} takes one, and so
 * does the {@code dumpFibers} operation of the scheduler's MBean ({@link SchedulerMXBean}).
 *
 * <p>{@link #toText()} (also {@link #toString()}) renders the cancellation tree, one fiber a line, a child
 * indented under its parent:
 *
 * <pre>
 * fiber dump of scheduler "orders" at 2026-11-25T15:54:01.113Z: 3 fibers, 2 workers
 * fiber-1290110436 "main" waits on join of fiber-586219218 "a"
 *   fiber-586219218 "a" waits on IVar "b" (empty)
 *   fiber-1011104955 "b" waits on IVar "a" (empty)
 * </pre>
 *
 * <p>The simulator's deadlock reports render their fibers the same way. {@link #toJson()} gives the same
 * content as JSON (the format is in {@code docs/diagnostics.md}): an object with {@code scheduler},
 * {@code time} (ISO-8601), {@code workers} and {@code fibers}, an array of objects with the fields of
 * {@link FiberSnapshot} ({@code state} as its name, absent values as null), in the order of the text.
 *
 * @param scheduler the scheduler's name
 * @param time      when the dump was taken, on the scheduler's clock
 * @param workers   the scheduler's worker count
 * @param fibers    the live fibers, each root followed by its descendants (depth first, newest child first)
 */
public record FiberDump(String scheduler, Instant time, int workers, List<FiberSnapshot> fibers) {
    /** Checks the arguments and copies the list. */
    public FiberDump {
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(time, "time");
        fibers = List.copyOf(fibers);
    }

    /**
     * {@return the fiber with id {@code id}, or null}
     *
     * @param id the fiber's id ({@link FiberSnapshot#id()})
     */
    public FiberSnapshot fiber(long id) {
        for (FiberSnapshot f : fibers) {
            if (f.id() == id) {
                return f;
            }
        }
        return null;
    }

    /**
     * {@return the fibers named {@code name} (by {@link Job#named})}
     *
     * @param name the name to look for
     */
    public List<FiberSnapshot> named(String name) {
        return fibers.stream().filter(f -> name.equals(f.name())).toList();
    }

    /** {@return the dump as an indented tree, one fiber a line (see above)} */
    public String toText() {
        return DumpText.text(this);
    }

    /** {@return the dump as JSON (see above and {@code docs/diagnostics.md})} */
    public String toJson() {
        return DumpText.json(this);
    }

    /** The same as {@link #toText()}. */
    @Override
    public String toString() {
        return toText();
    }
}
