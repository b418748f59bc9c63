package dev.spindle.examples;

import java.io.PrintStream;
import java.util.List;
import java.util.function.Consumer;

/** Runs every example in turn, each under a heading: what {@code bin/showcase} shows first. */
public final class Showcase {
    /** The examples, in the order the README presents them. */
    static final List<Example> EXAMPLES = List.of(
            new Example("Jobs and combinators (HelloJobs)", HelloJobs::demo),
            new Example("Fibers and cancellation (FibersAndCancellation)", FibersAndCancellation::demo),
            new Example("Finalizers (Finalizers)", Finalizers::demo),
            new Example("Sleep, timers and timeouts (Timeouts)", Timeouts::demo),
            new Example("all, race, any (Parallel)", Parallel::demo),
            new Example("Schedulers (Schedulers)", Schedulers::demo),
            new Example("Failures and the uncaught handler (Failures)", Failures::demo),
            new Example("Futures and blocking code (Interop)", Interop::demo),
            new Example("Deterministic simulation (Simulated)", Simulated::demo),
            new Example("Message passing (Messaging)", Messaging::demo),
            new Example("Coordination: wait groups, locks, events, pools (Coordination)", Coordination::demo),
            new Example("Direct style (DirectStyle)", DirectStyle::demo),
            new Example("Network services (NetworkServices)", NetworkServices::demo),
            new Example("An HTTP/1.1 keep-alive server (HttpHello)", HttpHello::demo));

    private Showcase() {
    }

    /** An example: a heading and the demo that prints under it. */
    record Example(String title, Consumer<PrintStream> demo) {
    }

    /** Runs every example, printing to {@code out}. */
    static void demo(PrintStream out) {
        for (Example example : EXAMPLES) {
            out.println("== " + example.title());
            example.demo().accept(out);
            out.println();
        }
    }

    /** Runs every example. */
    public static void main(String[] args) {
        demo(System.out);
    }
}
