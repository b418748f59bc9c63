/**
 * Spindle: lightweight fibers for Java.
 *
 * <p>{@code dev.spindle} holds the public API ({@link dev.spindle.Job}, {@link dev.spindle.Fiber},
 * {@link dev.spindle.Scheduler}, {@link dev.spindle.Outcome}). The runtime internals in
 * {@code dev.spindle.internal.*} are exported only to Spindle's own simulator.
 */
module dev.spindle {
    // Optional: diagnostics use them when the runtime has them (JFR events, the MBean) and do without
    // otherwise, so a minimal runtime image needs neither.
    requires static jdk.jfr;
    requires static java.management;

    exports dev.spindle;
    exports dev.spindle.sync;
    exports dev.spindle.net;
    exports dev.spindle.internal.run to dev.spindle.test;
    exports dev.spindle.internal.diag to dev.spindle.test;
}
