package dev.spindle.examples;

import dev.spindle.Alt;
import dev.spindle.FiberLocal;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.io.PrintStream;
import java.util.List;

/**
 * The current fiber and fiber-local context: {@link Job#self()} gives the running fiber's handle, and a
 * {@link FiberLocal} carries a value down a call chain (the fibers blog's "execution context as dependency
 * injection") without passing it as an argument: bound for a job's extent, inherited by the fibers it
 * starts, invisible to anyone else.
 */
public final class FiberContext {
    /** The request being served; "-" outside any request. */
    static final FiberLocal<String> REQUEST_ID = new FiberLocal<>("request id", "-");

    private FiberContext() {
    }

    /** Deep inside the call chain: reads the context nobody passed in. */
    static Job<String> log(String message) {
        return REQUEST_ID.get().map(id -> "[" + id + "] " + message);
    }

    /** Serves one request: two lookups in child fibers, which see the request id too. */
    static Job<List<String>> serve(String requestId) {
        return REQUEST_ID.with(requestId, Job.all(List.of(log("user lookup"), log("cart lookup"))));
    }

    /** Two requests served side by side, then a line logged outside both. */
    static List<String> twoRequests(Scheduler scheduler) {
        Job<List<String>> both = Job.all(List.of(serve("req-1"), serve("req-2")))
                .flatMap(lines -> log("idle").map(idle -> List.of(lines.get(0).get(0), lines.get(0).get(1),
                        lines.get(1).get(0), lines.get(1).get(1), idle)));
        return scheduler.run(both);
    }

    /** A fiber hands its own handle to a watchdog fiber, which cancels it. */
    static String cancelledThroughSelf(Scheduler scheduler) {
        Job<String> job = Job.self().flatMap(me -> me.cancel().startDetached())   // the watchdog
                .then(Alt.<String>never())                                          // waits until cancelled
                .start()
                .flatMap(f -> f.outcome().map(o -> "the fiber ended " + o));
        return scheduler.run(job);
    }

    /** Prints what each example gives. */
    static void demo(PrintStream out) {
        try (Scheduler scheduler = Scheduler.create()) {
            twoRequests(scheduler).forEach(line -> out.println("log          -> " + line));
            out.println("self         -> " + cancelledThroughSelf(scheduler));
        }
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
